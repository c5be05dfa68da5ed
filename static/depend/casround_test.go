package depend

import (
	"fmt"
	"strings"
	"testing"
)

// TestCASRound: a CAS from its own load whose failure comes back to the
// load carrying nothing (rTryLock's loop, Enqueue's re-call with the
// parameter whose address it stores on success) is a round; one whose
// loop counts its rounds, or whose result goes to its caller, is not.
// Ring[V].Enqueue is called only through an interface: its generic body
// must be indexed at all.
func TestCASRound(t *testing.T) {
	x, lines := buildShapes(t, "casround")
	// call is the site of the call of name in function fn (its parenthesis).
	call := func(fn, name string) string {
		in := false
		for i, l := range lines {
			if strings.HasPrefix(l, "func ") && strings.Contains(l, ") "+fn+"(") {
				in = true
				continue
			}
			if in && strings.Contains(l, name+"(") {
				return fmt.Sprintf("casround/casround.go:%d:%d", i+1, strings.Index(l, name+"(")+len(name)+1)
			}
		}
		t.Fatalf("no %s in %s", name, fn)
		return ""
	}
	for _, tc := range []struct {
		fn, load, cas string
		want          bool
	}{
		{"rTryLock", "LoadInt32", "CompareAndSwapInt32", true},
		{"Enqueue", "Load", "CompareAndSwap", true},
		{"counted", "LoadInt32", "CompareAndSwapInt32", false},
		{"tryInc", "LoadInt32", "CompareAndSwapInt32", false},
	} {
		if got := x.CASRound(call(tc.fn, tc.load), call(tc.fn, tc.cas)); got != tc.want {
			t.Errorf("%s: CASRound = %v, want %v", tc.fn, got, tc.want)
		}
	}
}

// TestRoundEnd: a re-load of the variable compared with the round's own
// load, both edges coming back carrying nothing, ends a round as a
// failed CAS does (marusama/semaphore's Acquire, issue 26); one whose
// loop counts its rounds, or that compares with a constant, does not,
// nor does Release's load, which no CAS of the load's round ends (its
// CAS is its own).
func TestRoundEnd(t *testing.T) {
	x, lines := buildShapes(t, "casround")
	// call is the site of the n-th call of name in method fn.
	call := func(fn, name string, n int) string {
		in := false
		for i, l := range lines {
			if strings.HasPrefix(l, "func ") {
				in = strings.Contains(l, ") "+fn+"(")
				continue
			}
			if in && strings.Contains(l, name+"(") {
				if n--; n == 0 {
					return fmt.Sprintf("casround/casround.go:%d:%d", i+1, strings.Index(l, name+"(")+len(name)+1)
				}
			}
		}
		t.Fatalf("no %s in %s", name, fn)
		return ""
	}
	load := call("Acquire", "LoadUint64", 1)
	for _, tc := range []struct {
		name      string
		load, end string
		want      bool
	}{
		{"Acquire's CAS", load, call("Acquire", "CompareAndSwapUint64", 1), true},
		{"Acquire's re-load", load, call("Acquire", "LoadUint64", 2), true},
		{"tally's re-load, its loop counting rounds", call("tally", "LoadUint64", 1), call("tally", "LoadUint64", 2), false},
		{"above's re-load, compared with a constant", call("above", "LoadUint64", 1), call("above", "LoadUint64", 2), false},
		{"Acquire's load, Release's CAS", load, call("Release", "CompareAndSwapUint64", 1), false},
		{"rTryLock's CAS, as CASRound", call("rTryLock", "LoadInt32", 1), call("rTryLock", "CompareAndSwapInt32", 1), true},
	} {
		if got := x.RoundEnd(tc.load, tc.end); got != tc.want {
			t.Errorf("%s: RoundEnd(%s, %s) = %v, want %v", tc.name, tc.load, tc.end, got, tc.want)
		}
	}
}

// casroundIndex builds the index of testdata's casround package and
// returns it with site: the n-th occurrence of text in method fn of type
// typ, at its column plus off; text "": the method's name in its
// declaration.
func casroundIndex(t *testing.T) (*Index, func(typ, fn, text string, n, off int) string) {
	t.Helper()
	x, lines := buildShapes(t, "casround")
	site := func(typ, fn, text string, n, off int) string {
		in := false
		decl := "*" + typ + ") " + fn + "("
		for i, l := range lines {
			if strings.HasPrefix(l, "func ") {
				in = strings.Contains(l, decl)
				if in && text == "" {
					return fmt.Sprintf("casround/casround.go:%d:%d", i+1, strings.Index(l, decl)+len(typ)+4)
				}
				continue
			}
			if in && strings.Contains(l, text) {
				if n--; n == 0 {
					return fmt.Sprintf("casround/casround.go:%d:%d", i+1, strings.Index(l, text)+1+off)
				}
			}
		}
		t.Fatalf("no %q in %s.%s", text, typ, fn)
		return ""
	}
	return x, site
}

// TestJudgeWokenFetch: marusama/semaphore's :197 asv-14 (issue 26):
// Acquire fetches the broadcast channel under the read lock (a), a
// Release's swap of the channel falls after it and its CAS before the
// re-load (b): "the value read at a decides the read at b". The swap
// closes the channel it replaces and the waiter only receives from its
// channel and starts over: a stale fetch is a retry (wokenFetch).
// SemKeep's Post swaps without closing: a stale fetch waits for ever,
// and wokenFetch does not excuse it.
func TestJudgeWokenFetch(t *testing.T) {
	x, site := casroundIndex(t)
	for _, tc := range []struct {
		typ, acquire, release string
		swap                  int  // the swap's store: the n-th s.ch in release
		want                  bool // Judge's dependence holds (wokenFetch does not)
	}{
		{"Sem", "Acquire", "Release", 2, false},
		{"SemKeep", "Wait", "Post", 1, true},
	} {
		acq := Frame{ID: 1, Site: site(tc.typ, tc.acquire, "", 0, 0)}
		rel := Frame{ID: 2, Site: site(tc.typ, tc.release, "", 0, 0)}
		evs := []Event{
			{Thread: 2, Unit: 2, Var: 0, Read: true, Write: true, Site: site(tc.typ, tc.release, "CompareAndSwapUint64(", 1, 20), Frames: []Frame{rel}},
			{Thread: 1, Unit: 1, Var: 1, Read: true, Site: site(tc.typ, tc.acquire, "s.ch", 1, 2), Frames: []Frame{acq}},
			{Thread: 2, Unit: 2, Var: 1, Write: true, Site: site(tc.typ, tc.release, "s.ch", tc.swap, 2), Frames: []Frame{rel}},
			{Thread: 1, Unit: 1, Var: 0, Read: true, Site: site(tc.typ, tc.acquire, "LoadUint64(", 2, 10), Frames: []Frame{acq}},
		}
		if v := x.Judge(evs); tc.typ == "Sem" && v.Holds {
			t.Errorf("%s: Judge = %v (%s), want false", tc.typ, v.Holds, v)
		}
		if got := x.wokenFetch(evs[1]); got == tc.want {
			t.Errorf("%s: wokenFetch = %v, want %v", tc.typ, got, !tc.want)
		}
	}
}

// TestJudgeWakeSwap: marusama/semaphore's :176 asv (issue 26): Release's
// CAS (a) decides its own swap of the broadcast channel (b) in the same
// activation; between them a waiter fetches the old channel and CASes an
// acquire (trial 33's), or another Release CASes and loads or swaps the
// channel (asv-9, asv-6). The swap stores a fresh channel and closes the
// one it replaces, and every fetch of the field is only received from in
// a loop that starts over: run on a stale check it only wakes waiters
// that retry. RelKeep (no close), RelLeave (the waiter leaves on the
// wake-up) and RelSized (the load's value sizes the new channel) stay
// judged.
func TestJudgeWakeSwap(t *testing.T) {
	x, site := casroundIndex(t)
	for _, tc := range []struct {
		typ, acquire, release string
		swap                  int // the swap's store: the n-th s.ch in release
		want                  bool
	}{
		{"RelSem", "Acquire", "Release", 2, false},
		{"RelKeep", "Acquire", "Release", 1, true},
		{"RelLeave", "Acquire", "Release", 2, true},
		{"RelSized", "Acquire", "Release", 2, true},
	} {
		acq := Frame{ID: 1, Site: site(tc.typ, tc.acquire, "", 0, 0)}
		rel := Frame{ID: 2, Site: site(tc.typ, tc.release, "", 0, 0)}
		rel2 := Frame{ID: 3, Site: rel.Site}
		load := Event{Thread: 2, Unit: 2, Var: 0, Read: true, Site: site(tc.typ, tc.release, "LoadUint64(", 1, 10), Frames: []Frame{rel}}
		cas := Event{Thread: 2, Unit: 2, Var: 0, Read: true, Write: true, Site: site(tc.typ, tc.release, "CompareAndSwapUint64(", 1, 20), Frames: []Frame{rel}}
		swap := Event{Thread: 2, Unit: 2, Var: 1, Write: true, Site: site(tc.typ, tc.release, "s.ch", tc.swap, 2), Frames: []Frame{rel}}
		fetch := Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: site(tc.typ, tc.acquire, "s.ch", 1, 2), Frames: []Frame{acq}}
		acquire := Event{Thread: 1, Unit: 1, Var: 0, Read: true, Write: true, Site: site(tc.typ, tc.acquire, "CompareAndSwapUint64(", 1, 20), Frames: []Frame{acq}}
		other := func(e Event) Event { e.Thread, e.Unit, e.Frames = 3, 3, []Frame{rel2}; return e }
		shapes := []struct {
			name string
			evs  []Event
		}{
			{"a waiter's fetch and acquire", []Event{cas, fetch, acquire, swap}},
			{"another Release's CAS and swap", []Event{cas, other(cas), other(swap), swap}},
			{"Release's load, another Release's CAS and swap", []Event{load, other(cas), other(swap), swap}},
		}
		if tc.swap > 1 {
			old := Event{Thread: 2, Unit: 2, Var: 1, Read: true, Site: site(tc.typ, tc.release, "s.ch", 1, 2), Frames: []Frame{rel}}
			shapes = append(shapes, struct {
				name string
				evs  []Event
			}{"another Release's CAS and its load of the channel", []Event{cas, other(cas), other(old), swap}})
		}
		for _, sh := range shapes {
			if v := x.Judge(sh.evs); v.Holds != tc.want {
				t.Errorf("%s, %s: Judge = %v (%s), want %v", tc.typ, sh.name, v.Holds, v, tc.want)
			}
			if got := x.wakeRetried(sh.evs[0], sh.evs[3]); got == tc.want {
				t.Errorf("%s, %s: wakeRetried = %v, want %v", tc.typ, sh.name, got, !tc.want)
			}
		}
	}
}
