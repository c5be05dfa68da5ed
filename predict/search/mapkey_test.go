package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// mapTrace: g1 checks key 1 of map m and then acts on it, in two critical
// sections of mu, and also writes y; g2, in between, touches m with
// remote ("write m key=1", "read m key=2", ...) and reads y. Both run
// inside units (region-begin/end) as methods do.
func mapTrace(t *testing.T, remote string) *trace.Trace {
	src := trace.TextHeader + `
main fork g1 @m.go:1
main fork g2 @m.go:2
g1 begin
g1 region-begin C.Put @a.go:1
g1 lock mu @a.go:2
g1 read m @a.go:3 key=1
g1 unlock mu @a.go:4
g1 lock mu @a.go:5
g1 write m @a.go:6 key=1
g1 unlock mu @a.go:7
g1 lock mu @a.go:8
g1 write y @a.go:9
g1 unlock mu @a.go:10
g1 region-end C.Put @a.go:11
g1 end
g2 begin
g2 region-begin C.Get @b.go:1
g2 lock mu @b.go:2
` + fmt.Sprintf("g2 %s @b.go:3\n", remote) + `g2 unlock mu @b.go:4
g2 lock mu @b.go:5
g2 read y @b.go:6
g2 unlock mu @b.go:7
g2 region-end C.Get @b.go:8
g2 end
main join g1 @m.go:3
main join g2 @m.go:4
`
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestMapKeys: an atomicity or atomic-set anomaly on a map needs one
// element that all of a variable's accesses touch: another goroutine's
// write of the same key, or of the whole map, between the check and the
// act is one; another key's is none, and neither is a read of another key
// between the unit's write of key 1 and of y (asv-9, the gcache shape).
func TestMapKeys(t *testing.T) {
	for _, c := range []struct {
		remote string
		want   []string // kind/name of patterns that must be found on m
		not    []string // and must not
	}{
		{"write m key=1", []string{"av/RWW"}, nil},
		{"write m", []string{"av/RWW"}, nil}, // clear(m): every key
		{"write m key=2", nil, []string{"av/RWW", "asv/asv-9"}},
		{"read m key=1", []string{"asv/asv-9"}, nil},
		{"read m", []string{"asv/asv-9"}, nil}, // len(m)
		{"read m key=2", nil, []string{"av/RWW", "asv/asv-9"}},
	} {
		gr := ptg.Build(mapTrace(t, c.remote))
		found := map[string]bool{}
		st := Run(gr, allPatterns(t), Options{}, func(cd Candidate) bool {
			for _, e := range cd.Events {
				if gr.Tr.Objects[gr.Ev(e).Obj] == "m" {
					found[cd.Pattern.Kind+"/"+cd.Pattern.Name] = true
				}
			}
			return true
		})
		for _, k := range c.want {
			if !found[k] {
				t.Errorf("remote %q: %s not found (found %v)", c.remote, k, found)
			}
		}
		for _, k := range c.not {
			if found[k] {
				t.Errorf("remote %q: %s found", c.remote, k)
			}
		}
		if len(c.not) > 0 && st.KeysApart == 0 {
			t.Errorf("remote %q: no instance counted apart", c.remote)
		}
	}
}

// TestMapKeysSweep: a range over a map (a whole-map read at each step)
// deletes each expired key after a callback run without the lock; another
// goroutine sets key A afterwards. The unit's instances nearest the
// remote write are on key B; the one on key A must still be tried
// (keysApart instances do not count against PerClass): sweep's subject.
func TestMapKeysSweep(t *testing.T) {
	src := trace.TextHeader + `
main fork g1 @m.go:1
main fork g2 @m.go:2
g1 begin
g1 region-begin C.Sweep @s.go:1
g1 lock mu @s.go:2
g1 read m @s.go:3
g1 unlock mu @s.go:4
g1 lock mu @s.go:5
g1 write m @s.go:6 key=1
g1 read m @s.go:3
g1 unlock mu @s.go:4
g1 lock mu @s.go:5
g1 write m @s.go:6 key=2
g1 read m @s.go:3
g1 unlock mu @s.go:4
g1 lock mu @s.go:5
g1 write m @s.go:6 key=3
g1 read m @s.go:3
g1 unlock mu @s.go:7
g1 region-end C.Sweep @s.go:8
g1 end
g2 begin
g2 region-begin C.Set @t.go:1
g2 lock mu @t.go:2
g2 write m @t.go:3 key=1
g2 unlock mu @t.go:4
g2 region-end C.Set @t.go:5
g2 end
main join g1 @m.go:3
main join g2 @m.go:4
`
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gr := ptg.Build(tr)
	found := false
	Run(gr, allPatterns(t), Options{}, func(cd Candidate) bool {
		if cd.Pattern.Kind+"/"+cd.Pattern.Name == "av/RWW" {
			found = true
			for _, e := range cd.Events {
				if ev := gr.Ev(e); ev.Op == trace.Write && ev.Arg != 1 {
					t.Errorf("av/RWW instance with a write of key %d", ev.Arg)
				}
			}
		}
		return true
	})
	if !found {
		t.Error("av/RWW on key 1 not found")
	}
}
