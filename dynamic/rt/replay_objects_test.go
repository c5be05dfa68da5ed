package rt

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

const (
	oW int32 = 2200 + iota // after stuck_test.go's 2100…
	oGo1
	oGo2
)

var _ = Register(oW, []Site{
	{Pos: "fresh.go:3:2", Obj: "v"},
	{Pos: "fresh.go:1:1", Obj: "go"},
	{Pos: "fresh.go:2:1", Obj: "go"},
})

// twoWriters starts two goroutines that each write one int at the same
// site: a shared one, or each its own fresh allocation.
func twoWriters(shared bool) func() bool {
	return func() bool {
		var keep [2]*int // makes the allocations escape: heap objects
		var s *int
		if shared {
			s = new(int)
			keep[0] = s
		}
		var wg sync.WaitGroup
		wg.Add(2)
		for k, site := range []int32{oGo1, oGo2} {
			id := Go(site)
			go func() {
				Begin(id)
				defer wg.Done()
				defer End()
				p := s
				if p == nil {
					p = new(int)
					keep[k] = p
				}
				W(unsafe.Pointer(p), oW)
				*p = 1
			}()
		}
		wg.Wait()
		return keep[0] != nil && keep[1] != nil
	}
}

// freshSchedule: both goroutines' writes, after the forks and begins; the
// anomaly names objects a and b.
func freshSchedule(t *testing.T, a, b string) string {
	p := filepath.Join(t.TempDir(), "s.sched")
	s := "anomaly race/WW 5 6\n" +
		"g1 fork @fresh.go:1:1 n=1\n" +
		"g1 fork @fresh.go:2:1 n=1\n" +
		"g1.1 begin n=1\n" +
		"g1.2 begin n=1\n" +
		"g1.1 write " + a + " @fresh.go:3:2 n=1\n" +
		"g1.2 write " + b + " @fresh.go:3:2 n=1\n"
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReplayWrongObject: a replay that runs the schedule's steps at the
// right sites, in order, but on different objects than the prediction's is
// pruned ("wrong-object"), in both directions; on the predicted objects it
// is reproduced.
func TestReplayWrongObject(t *testing.T) {
	for _, c := range []struct {
		name   string
		shared bool
		a, b   string
		want   string
	}{
		{"fresh objects, predicted one", false, "v#1", "v#1", "wrong-object"},
		{"one object, predicted two", true, "v#1", "v#2", "wrong-object"},
		{"one object, predicted one", true, "v#1", "v#1", "reproduced"},
		{"fresh objects, predicted two", false, "v#1", "v#2", "reproduced"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, _, _ := replayOnce(t, freshSchedule(t, c.a, c.b), twoWriters(c.shared))
			if v.Verdict != c.want {
				t.Fatalf("verdict %+v, want %s", v, c.want)
			}
			if c.want == "wrong-object" && (v.Step != 6 || !strings.Contains(v.Message, "in the replay")) {
				t.Fatalf("verdict %+v: want step 6 and the objects in the message", v)
			}
		})
	}
}
