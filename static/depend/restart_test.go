package depend

import "testing"

// TestJudgeRestarted: lockfree's LLStack.Push (testdata's LFStack). A
// failed CAS (recorded as a load), another Push's swap, then the unit's
// next round's CAS: the failure sent the unit back through the loop's
// condition, which reads the size afresh, and the round before left
// nothing (restarted), so the check-then-act on the failed CAS does not
// hold; main's build judged it to hold (stack.go:46 av). It still holds
// when the round counts its tries (the loop head's phi), writes shared
// state, links the node only on some rounds, counts in the node, or
// relinks a node it has already published.
func TestJudgeRestarted(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	for _, c := range []struct {
		method, recv, line string
		want               bool // Judge holds
	}{
		{"Push", "s *LFStack", "// lfstack push cas", false},
		{"PushYield", "s *LFStack", "// lfstack yield cas", false},
		{"Push", "s *GStack[V]", "// gstack push cas", false},
		{"PushTries", "s *LFStack", "// lfstack tries cas", true},
		{"PushNoted", "s *LFStack", "// lfstack noted cas", true},
		{"PushLinked", "s *LFStack", "// lfstack linked cas", true},
		{"PushCounted", "s *LFStack", "// lfstack counted cas", true},
		{"PushTwice", "s *LFStack", "// lfstack twice cas", true},
	} {
		site := call(c.line, "CompareAndSwap")
		fr := func(id int32) []Frame {
			return []Frame{{ID: id, Site: at("func ("+c.recv+") "+c.method+"(", c.method)}}
		}
		failed := Event{Thread: 1, Unit: 1, Read: true, Site: site, Frames: fr(1)}
		other := Event{Thread: 2, Unit: 2, Read: true, Write: true, Site: site, Frames: fr(2)}
		swap := Event{Thread: 1, Unit: 1, Read: true, Write: true, Site: site, Frames: fr(1)}
		if got := x.restarted(failed); got == c.want {
			t.Errorf("%s %s: restarted = %v, want %v", c.recv, c.method, got, !c.want)
		}
		if x.restarted(swap) {
			t.Errorf("%s %s: restarted(a CAS that swapped) = true", c.recv, c.method)
		}
		if v := x.Judge([]Event{failed, other, swap}); v.Holds != c.want {
			t.Errorf("%s %s: Judge(failed CAS, other's swap, swap) = %v, %q: %s; want %v", c.recv, c.method, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeRestartedLoad: lockfree's stack.go:44 asv (a false report
// once the index saw Full() called in the generic Push): Push's load of
// the head, another Push's CAS and add, then, its own CAS having failed,
// the next round's Full() reading the size. The load decides the read
// only by the CAS failing, and the failed round is a no-op
// (restartedLoad). Near misses hold: the round counts its tries
// (PushTries, its phi), and a b that the CAS's success reaches (the
// unit's add).
func TestJudgeRestartedLoad(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	fr := func(id int32, method string) Frame {
		return Frame{ID: id, Site: at("func (s *LFStack) "+method+"(", method)}
	}
	full := shift(at("func (s *LFStack) Full()", "s.size.Load()"), len("s.size.Load"))
	fullFr := Frame{ID: 3, Site: at("func (s *LFStack) Full()", "Full")}
	pushCAS, pushAdd := call("// lfstack push cas", "CompareAndSwap"), call("// lfstack push size", "Add")
	for _, c := range []struct {
		name, method, load string
		b                  func(Frame) Event
		want               bool
	}{
		{"Push: the next round's Full()", "Push", "// lfstack push load", func(f Frame) Event {
			return Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: full, Frames: []Frame{f, fullFr}}
		}, false},
		{"near miss: PushTries counts its rounds", "PushTries", "// lfstack tries load", func(f Frame) Event {
			return Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: full, Frames: []Frame{f, fullFr}}
		}, true},
		{"near miss: the success path's add", "Push", "// lfstack push load", func(f Frame) Event {
			return Event{Thread: 1, Unit: 1, Var: 1, Read: true, Write: true, Site: pushAdd, Frames: []Frame{f}}
		}, true},
	} {
		f := fr(1, c.method)
		a := Event{Thread: 1, Unit: 1, Var: 0, Read: true, Site: call(c.load, "Load"), Frames: []Frame{f}}
		other := []Event{
			{Thread: 2, Unit: 2, Var: 0, Read: true, Write: true, Site: pushCAS, Frames: []Frame{fr(2, "Push")}},
			{Thread: 2, Unit: 2, Var: 1, Read: true, Write: true, Site: pushAdd, Frames: []Frame{fr(2, "Push")}},
		}
		if v := x.Judge([]Event{a, other[0], other[1], c.b(f)}); v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}
