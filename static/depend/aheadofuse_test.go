package depend

import "testing"

// TestJudgeAheadOfUse: lockfree's queue.go:46 asv (triaged false), the
// Michael-Scott Dequeue (testdata's MSQueue) loading the tail and then
// the head's next in one pass, before testing either, around an
// Enqueue's link CAS and tail swing. Neither as an inconsistent snapshot
// nor as check-then-act does the tail decide the next load: main's build
// judged both to hold. Near misses hold: the replay shows the unit
// coming round to the tail load again before the next load (a later
// pass), the next load past the tail's test (DequeueLate), the next
// load from the tail itself (DequeueFrom), and no schedule (no steps).
func TestJudgeAheadOfUse(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	fr := func(id int32, method string) []Frame {
		return []Frame{{ID: id, Site: at("func (q *MSQueue) "+method+"(", method)}}
	}
	link, swing := call("// msqueue enqueue link", "CompareAndSwap"), call("// msqueue enqueue swing", "CompareAndSwap")
	enq := fr(2, "Enqueue")
	for _, c := range []struct {
		name, method, tail, next string
		after                    func(tail string) []string
		step                     int
		want                     bool // Judge holds
	}{
		{"Dequeue", "Dequeue", "// msqueue dequeue tail", "// msqueue dequeue next", func(string) []string { return []string{call("// msqueue dequeue head", "Load")} }, 10, false},
		{"near miss: a later pass", "Dequeue", "// msqueue dequeue tail", "// msqueue dequeue next", func(tail string) []string { return []string{tail, call("// msqueue dequeue head", "Load")} }, 10, true},
		{"near miss: no schedule", "Dequeue", "// msqueue dequeue tail", "// msqueue dequeue next", func(string) []string { return nil }, 0, true},
		{"near miss: next loaded past the tail's test", "DequeueLate", "// msqueue late tail", "// msqueue late next", func(string) []string { return nil }, 10, true},
		{"near miss: next loaded from the tail", "DequeueFrom", "// msqueue from tail", "// msqueue from next", func(string) []string { return nil }, 10, true},
	} {
		tail, next := call(c.tail, "Load"), call(c.next, "Load")
		deq := fr(1, c.method)
		step := func(n int) int {
			if c.step == 0 {
				return 0
			}
			return c.step + n
		}
		ld := func(v, n int, site string) Event {
			return Event{Thread: 1, Unit: 1, Var: v, Read: true, Site: site, Frames: deq, Step: step(n)}
		}
		rmw := func(v, n int, site string) Event {
			return Event{Thread: 2, Unit: 2, Var: v, Read: true, Write: true, Site: site, Frames: enq, Step: step(n)}
		}
		// asv-10: the snapshot inside the Enqueue's two writes.
		snap := []Event{rmw(1, -1, link), ld(0, 0, tail), ld(1, 2, next), rmw(0, 3, swing)}
		snap[1].After = c.after(tail)
		if v := x.Judge(snap); v.Holds != c.want {
			t.Errorf("%s, snapshot: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
		// asv-12: the Enqueue's two writes between the loads.
		cta := []Event{ld(0, 0, tail), rmw(1, 1, link), rmw(0, 2, swing), ld(1, 3, next)}
		cta[0].After = c.after(tail)
		if v := x.Judge(cta); v.Holds != c.want {
			t.Errorf("%s, check-then-act: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}
