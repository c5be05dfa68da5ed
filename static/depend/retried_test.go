package depend

import (
	"strings"
	"testing"
)

// TestJudgeClaimWait: claimbitfixed's queue (testdata's Claims). A Pop
// that reads the odd index a Push's CAS stored (the claim) and then
// waits for the claimed slot is judged as a read after the claim's end
// (claimKept: the odd index, never equal to the consumer's even one,
// says "not empty" as the even one the claim ends with does), and a
// slot read that went round the wait loop (Event.Retried) uses nothing
// (retried). Each instance holds without the rule's input (no Claim, no
// Retried: what main's build judged, claimbitfixed reported in some
// runs), and holds with it when the rule's shape is missing: a claim
// given back (PushBack stores i again: before and after are one, claimbit's bug), a
// wait loop that keeps every value it reads (PopSeen).
func TestJudgeClaimWait(t *testing.T) {
	x, at := index(t)
	method := func(recv, name string) string { return at("func ("+recv+") "+name+"(", name) }
	frame := func(id int32, recv, name string) Frame { return Frame{ID: id, Site: method(recv, name)} }
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	const recv = "q *Claims"
	push := []Frame{frame(1, recv, "Push"), frame(2, recv, "push")}
	back := []Frame{frame(1, recv, "PushBack"), frame(2, recv, "pushBack")}
	pop, popSeen := []Frame{frame(9, recv, "Pop")}, []Frame{frame(9, recv, "PopSeen")}
	ev := func(u, v int, read, write bool, site string, fr []Frame) Event {
		return Event{Thread: u, Unit: u, Var: v, Read: read, Write: write, Site: site, Frames: fr}
	}
	const idx, slot = 0, 1
	cas := ev(1, idx, true, true, call("// claims cas", "CompareAndSwap"), push)
	fill := ev(1, slot, false, true, call("// claims fill", "Store"), push)
	end := ev(1, idx, false, true, call("// claims end", "Store"), push)
	backFill := ev(1, slot, false, true, call("// claims back fill", "Store"), back)
	backEnd := ev(1, idx, false, true, call("// claims back end", "Store"), back)
	load := ev(2, idx, true, false, call("// claims pop idx", "Load"), pop)
	wait := ev(2, slot, true, false, call("// claims pop slot", "Load"), pop)
	take := ev(2, slot, false, true, call("// claims pop take", "Store"), pop)
	seenWait := ev(2, slot, true, false, call("// claims seen slot", "Load"), popSeen)
	claimed := func(e Event, cas, end string, fr []Frame, within ...int) Event {
		e.Claim = &Claim{CAS: cas, End: end, Frames: fr, Within: within}
		return e
	}
	kept := func(e Event, within ...int) Event { return claimed(e, cas.Site, end.Site, push, within...) }
	given := func(e Event, within ...int) Event {
		return claimed(e, call("// claims back cas", "CompareAndSwap"), backEnd.Site, back, within...)
	}
	retried := func(e Event) Event { e.Retried = true; return e }

	if exit, ok := x.ExitTest(wait.Site); !ok || exit != take.Site {
		t.Errorf("ExitTest(Pop's slot load) = %q, %v; want %q, true", exit, ok, take.Site)
	}
	if exit, ok := x.ExitTest(call("// claims count slot", "Load")); !ok || exit != "" {
		t.Errorf("ExitTest(PopCount's slot load) = %q, %v; want \"\", true: its exit counts in a plain field first", exit, ok)
	}
	if _, ok := x.ExitTest(seenWait.Site); ok {
		t.Errorf("ExitTest(PopSeen's slot load) = true: its loop keeps every value it reads")
	}
	if _, ok := x.ExitTest(load.Site); ok {
		t.Errorf("ExitTest(Pop's index load) = true: no loop reads it again")
	}

	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		// asv-9: the claim, Pop's index and slot reads, the fill.
		{"asv-9: the slot read before the fill, as recorded", []Event{cas, load, wait, fill}, true},
		{"asv-9: the slot read before the fill went round the wait", []Event{cas, load, retried(wait), fill}, false},
		{"asv-9: PopSeen's slot read went round, keeping its nil", []Event{cas, load, retried(seenWait), fill}, true},
		// av/RWW: the slot read, the fill, Pop's take.
		{"RWW: the slot read, the fill, the take", []Event{wait, fill, take}, true},
		{"RWW: the slot read went round before the take", []Event{retried(wait), fill, take}, false},
		// asv-12..14, asv-10: the index read the claim's odd value.
		{"asv-12: the fill and the end between the index and slot reads", []Event{load, fill, end, wait}, true},
		{"asv-12: the index read the claim", []Event{kept(load, 1, 2), fill, end, wait}, false},
		{"asv-12: the index read a claim given back", []Event{given(load, 1, 2), backFill, backEnd, wait}, true},
		{"asv-13: the fill, the slot read, the end", []Event{load, fill, wait, end}, true},
		{"asv-13: the index read the claim", []Event{kept(load, 1, 3), fill, wait, end}, false},
		{"asv-13: the index read a claim given back", []Event{given(load, 1, 3), backFill, wait, backEnd}, true},
		{"asv-14: the fill, the index read, the end, the slot read", []Event{fill, load, end, wait}, true},
		{"asv-14: the index read the claim", []Event{fill, kept(load, 0, 2), end, wait}, false},
		{"asv-10: both reads between the fill and the end", []Event{fill, load, wait, end}, true},
		{"asv-10: the index read the claim", []Event{fill, kept(load, 0, 3), wait, end}, false},
		{"asv-10: the index read a claim given back", []Event{backFill, given(load, 0, 3), wait, backEnd}, true},
		// The claim's end outside the pattern: the slot read before
		// the fill is still half old, unless it went round.
		{"asv-9: the index read the claim, the slot read before the fill", []Event{cas, kept(load, 0, 3), wait, fill}, true},
		{"asv-9: the index read the claim, the slot read went round", []Event{cas, kept(load, 0, 3), retried(wait), fill}, false},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}
