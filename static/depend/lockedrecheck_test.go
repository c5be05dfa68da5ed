package depend

import (
	"fmt"
	"strings"
	"testing"
)

// TestJudgeLockedRecheck: double-checked locking. bigcache's shard.del
// (the pre-check's entry read, another's Set, the index looked up again
// under the write lock) and shimingyah/pool's decrRef (the add that
// reached 0, another's Get and grow, the load of current deciding the
// lock, under which ref is loaded again and decides the shrink) act on
// the re-read. Stay judged: a re-read whose value decides nothing, a
// lock released before the act, a re-read of another field, and a
// locked miss answered otherwise than the pre-check's.
func TestJudgeLockedRecheck(t *testing.T) {
	x, lines := buildShapes(t, "dcl")
	at := func(line, col string, off int) string {
		for i, l := range lines {
			if strings.Contains(l, line) {
				c := strings.Index(l, col)
				if c < 0 {
					t.Fatalf("%q not in line %q", col, l)
				}
				return fmt.Sprintf("dcl/dcl.go:%d:%d", i+1, c+1+off)
			}
		}
		t.Fatalf("no line %q", line)
		return ""
	}
	fr := func(id int32, recv, name string) Frame {
		return Frame{ID: id, Site: at("func ("+recv+") "+name+"(", name, 0)}
	}
	ev := func(u, v int, read, write bool, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Var: v, Read: read, Write: write, Site: site, Frames: frs}
	}
	del := func(method, tag string) []Event {
		return []Event{
			ev(1, 0, true, false, at("// m check entries", "entries", 0), fr(1, "s *M", method), fr(2, "s *M", "check")),
			ev(2, 0, false, true, at("// m set entries", "s.entries =", 0), fr(8, "s *M", "Set")),
			ev(2, 1, false, true, at("// m set index", "[", 0), fr(8, "s *M", "Set")),
			ev(1, 1, true, false, at(tag, "[", 0), fr(1, "s *M", method)),
		}
	}
	put := func(method, tag string) []Event {
		return []Event{
			ev(1, 0, true, true, at("// "+tag+" put ref", "AddInt32(", 8), fr(1, "p *Pool", method)),
			ev(2, 0, true, true, at("// pool get ref", "AddInt32(", 8), fr(8, "p *Pool", "Get")),
			ev(2, 1, false, true, at("// pool grow", "StoreInt32(", 10), fr(8, "p *Pool", "Get")),
			ev(1, 1, true, false, at("// "+tag+" put current", "LoadInt32(", 9), fr(1, "p *Pool", method)),
		}
	}
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"shard.del: entry pre-checked, Set, index looked up again under the lock", del("Del", "// m again index"), false},
		{"decrRef: ref reached 0, Get and grow, current loaded; ref re-checked under the lock", put("Put", "pool"), false},
		{"the locked miss answered otherwise than the pre-check's", del("DelOtherResult", "// o again index"), true},
		{"ref re-read under the lock, the shrink not decided by it", put("PutUntested", "untested"), true},
		{"ref re-checked, the lock released before the shrink", put("PutUnlocked", "unlocked"), true},
		{"another field re-checked under the lock", put("PutOther", "other"), true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}
