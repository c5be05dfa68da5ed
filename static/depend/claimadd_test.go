package depend

import "testing"

// TestJudgeClaimAdd: amirylm/lockfree's stack.go:63 asv (triaged false):
// Pop's CAS that swapped, another Push's CAS and its dropped
// `size.Add(1)`, then Pop's dropped `size.Add(-1)` (testdata's LFStack).
// The swap's success is Pop's own and the adds commute: no
// check-then-act (main's build judged one: "the value read at
// stack.go:63 decides the read-modify-write at stack.go:64"). Push
// against Push alike. stack.go:46 asv (true), where the other Push's
// Full() reads the size between, still holds, now as what it is: an
// inconsistent snapshot, on a generic type too (GStack[V], whose Full()
// is called through an instantiation wrapper: main's index saw no call
// of Full there). Near misses hold: an add whose result is used,
// a store of the size between, and an unknown schedule (no Prior).
func TestJudgeClaimAdd(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	fr := func(id int32, method string) Frame {
		return Frame{ID: id, Site: at("func (s *LFStack) "+method+"(", method)}
	}
	popCAS := call("// lfstack pop cas", "CompareAndSwap")
	popAdd := call("// lfstack pop size", "Add")
	pushCAS := call("// lfstack push cas", "CompareAndSwap")
	pushAdd := call("// lfstack push size", "Add")
	full := at("func (s *LFStack) Full()", "s.size.Load()")
	full = shift(full, len("s.size.Load"))
	emptiedCAS := call("// lfstack emptied cas", "CompareAndSwap")
	emptiedAdd := call("// lfstack emptied size", "Add")
	resetHead := call("// lfstack reset head", "Store")
	resetSize := call("// lfstack reset size", "Store")
	rmw := func(u, v, step int, site string, f ...Frame) Event {
		return Event{Thread: u, Unit: u, Var: v, Read: true, Write: true, Site: site, Frames: f, Step: step}
	}
	// The unit's add, with the writes of the size from the unit's swap
	// (step 10) to it (step 13).
	add := func(site string, f Frame, prior ...Touch) Event {
		e := rmw(1, 1, 13, site, f)
		e.Prior = append([]Touch{}, prior...)
		return e
	}
	pop, push, push2 := fr(1, "Pop"), fr(1, "Push"), fr(2, "Push")
	gCAS := call("// gstack push cas", "CompareAndSwap")
	gAdd := call("// gstack push size", "Add")
	gFull := shift(at("func (s *GStack[V]) Full()", "s.size.Load()"), len("s.size.Load"))
	gpush := Frame{ID: 1, Site: at("func (s *GStack[V]) Push(", "Push")}
	gpush2 := Frame{ID: 2, Site: gpush.Site}
	for _, c := range []struct {
		name string
		evs  []Event
		want bool   // Judge holds
		kind string // and its kind, if not ""
	}{
		{"stack.go:63 asv: Pop's swap, a Push's swap and add, Pop's add",
			[]Event{rmw(1, 0, 10, popCAS, pop), rmw(2, 0, 11, pushCAS, push2), rmw(2, 1, 12, pushAdd, push2), add(popAdd, pop, Touch{Step: 12, Site: pushAdd, G: "g2"})}, false, ""},
		{"Push's swap, another Push's swap and add, Push's add",
			[]Event{rmw(1, 0, 10, pushCAS, push), rmw(2, 0, 11, pushCAS, push2), rmw(2, 1, 12, pushAdd, push2), add(pushAdd, push, Touch{Step: 12, Site: pushAdd, G: "g2"})}, false, ""},
		{"stack.go:46 asv: another Push's Full() reads the size between",
			[]Event{rmw(1, 0, 10, pushCAS, push), {Thread: 2, Unit: 2, Var: 1, Read: true, Site: full, Frames: []Frame{push2, {ID: 3, Site: at("func (s *LFStack) Full()", "Full")}}, Step: 11}, rmw(2, 0, 12, pushCAS, push2), add(pushAdd, push)}, true, "inconsistent snapshot"},
		{"stack.go:46 asv on a generic type: Full() through the instance's wrapper",
			[]Event{rmw(1, 0, 10, gCAS, gpush), {Thread: 2, Unit: 2, Var: 1, Read: true, Site: gFull, Frames: []Frame{gpush2, {ID: 3, Site: at("func (s *GStack[V]) Full()", "Full")}}, Step: 11}, rmw(2, 0, 12, gCAS, gpush2), add(gAdd, gpush)}, true, "inconsistent snapshot"},
		{"near miss: the unit's add result used",
			[]Event{rmw(1, 0, 10, emptiedCAS, fr(1, "PopEmptied")), rmw(2, 0, 11, pushCAS, push2), rmw(2, 1, 12, pushAdd, push2), add(emptiedAdd, fr(1, "PopEmptied"), Touch{Step: 12, Site: pushAdd, G: "g2"})}, true, ""},
		{"near miss: a store of the size between",
			[]Event{rmw(1, 0, 10, popCAS, pop), {Thread: 2, Unit: 2, Var: 0, Write: true, Site: resetHead, Frames: []Frame{fr(2, "Reset")}, Step: 11}, {Thread: 2, Unit: 2, Var: 1, Write: true, Site: resetSize, Frames: []Frame{fr(2, "Reset")}, Step: 12}, add(popAdd, pop, Touch{Step: 12, Site: resetSize, G: "g2"})}, true, ""},
		{"near miss: no schedule (Prior unknown)",
			[]Event{rmw(1, 0, 10, popCAS, pop), rmw(2, 0, 11, pushCAS, push2), rmw(2, 1, 12, pushAdd, push2), rmw(1, 1, 13, popAdd, pop)}, true, ""},
	} {
		if v := x.Judge(c.evs); v.Holds != c.want || c.kind != "" && v.Kind != c.kind {
			t.Errorf("%s: Judge = %v, %q: %s; want %v %q", c.name, v.Holds, v.Kind, v.Why, c.want, c.kind)
		} else {
			t.Logf("%s: %v %q: %s", c.name, v.Holds, v.Kind, v.Why)
		}
	}
}
