package depend

import "testing"

// TestVoidLoad: the loads whose rounds a replay can show void (check's
// voidRounds): the Michael-Scott queue's tail loads (lockfree's
// queue.go:43 and :60, issue 26). Near misses: a loop that counts its
// rounds, one that writes a plain field each round, a function (no
// region marks its activation), and LFStack's Push, whose load is
// past the loop's test of Full().
func TestVoidLoad(t *testing.T) {
	x, at := index(t)
	load := func(line string) string { return shift(at(line, "Load("), len("Load")) }
	for _, c := range []struct {
		name, site string
		want       bool
	}{
		{"Enqueue's tail load", load("// msqueue enqueue tail"), true},
		{"Dequeue's tail load", load("// msqueue dequeue tail"), true},
		{"near miss: Enqueue's next load, after the tail's (which the next round loads again)", load("// msqueue enqueue tn"), false},
		{"near miss: a counted loop", load("// msqueue counted tail"), false},
		{"near miss: a plain field written each round", load("// msqueue noted tail"), false},
		{"near miss: a function", load("// msqueue func tail"), false},
		{"near miss: Push, loaded past the loop's test", load("// lfstack push load"), false},
		{"near miss: no loop", load("// msqueue from tail"), false},
	} {
		if got := x.VoidLoad(c.site); got != c.want {
			t.Errorf("%s: VoidLoad(%s) = %v, want %v", c.name, c.site, got, c.want)
		}
	}
	cas := func(line string) string { return shift(at(line, "CompareAndSwap("), len("CompareAndSwap")) }
	for _, c := range []struct {
		name, site string
		want       bool
	}{
		{"Enqueue's link CAS", cas("// msqueue enqueue link"), true},
		{"Enqueue's helping swing", cas("// msqueue enqueue help"), true},
		{"Dequeue's next load", load("// msqueue dequeue next"), true},
		{"near miss: Push's CAS", cas("// lfstack push cas"), false},
		{"near miss: no loop", load("// msqueue from next"), false},
	} {
		if got := x.InVoidLoop(c.site); got != c.want {
			t.Errorf("%s: InVoidLoop(%s) = %v, want %v", c.name, c.site, got, c.want)
		}
	}
}

// TestJudgeVoid: Judge takes a read in a void round (Event.Void) as
// deciding nothing: lockfree's Enqueue, its tail load, another
// Enqueue's link and swing, its next load (asv-12, check-then-act),
// and its failed link CAS then its next round's tail load inside the
// other's link and swing (asv-9, inconsistent snapshot). Without Void
// both hold, as on main.
func TestJudgeVoid(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	tail, tn := call("// msqueue enqueue tail", "Load"), call("// msqueue enqueue tn", "Load")
	link, swing := call("// msqueue enqueue link", "CompareAndSwap"), call("// msqueue enqueue swing", "CompareAndSwap")
	fr := func(id int32) []Frame {
		return []Frame{{ID: id, Site: at("func (q *MSQueue) Enqueue(", "Enqueue")}}
	}
	for _, void := range []bool{false, true} {
		ld := func(v, step int, site string) Event {
			return Event{Thread: 1, Unit: 1, Var: v, Read: true, Site: site, Frames: fr(1), Step: step, Void: void}
		}
		rmw := func(v, step int, site string) Event {
			return Event{Thread: 2, Unit: 2, Var: v, Read: true, Write: true, Site: site, Frames: fr(2), Step: step}
		}
		cta := []Event{ld(0, 10, tail), rmw(1, 11, link), rmw(0, 12, swing), ld(1, 13, tn)}
		if v := x.Judge(cta); v.Holds == void {
			t.Errorf("asv-12, void %v: Judge = %v, %q: %s", void, v.Holds, v.Kind, v.Why)
		}
		snap := []Event{rmw(1, 10, link), ld(1, 11, link), ld(0, 12, tail), rmw(0, 13, swing)}
		if v := x.Judge(snap); v.Holds == void {
			t.Errorf("asv-9, void %v: Judge = %v, %q: %s", void, v.Holds, v.Kind, v.Why)
		}
	}
}
