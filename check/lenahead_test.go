package check

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// goresilienceAhead is slok/goresilience v0.2.0's dynamicQueue in a
// replay of the queue.go:144 asv-12: the dequeuer g1 checks the queue
// (a, under jobsMu), the enqueuer g2 counts its job (inc) and appends
// it, then g1 takes a job and uncounts it (b, dec's read of the count).
var goresilienceAhead = []string{
	"g1 write Q.jobs @q.go:9 len=1",   // 0
	"g1 lock jobsMu @q.go:142",        // 1: s
	"g1 read Q.jobs @q.go:144",        // 2: a
	"g1 unlock jobsMu @q.go:143",      // 3
	"g2 recv in @q.go:89",             // 4
	"g2 lock statsMu @q.go:188",       // 5
	"g2 read S.size @q.go:193",        // 6
	"g2 write S.size @q.go:193",       // 7
	"g2 unlock statsMu @q.go:189",     // 8
	"g2 lock jobsMu @q.go:91",         // 9
	"g2 read Q.jobs @q.go:93",         // 10
	"g2 write Q.jobs @q.go:93 len=2",  // 11
	"g2 unlock jobsMu @q.go:101",      // 12
	"g1 lock jobsMu @q.go:129",        // 13
	"g1 read Q.jobs @q.go:131",        // 14
	"g1 write Q.jobs @q.go:131 len=1", // 15
	"g1 unlock jobsMu @q.go:133",      // 16
	"g1 lock statsMu @q.go:197",       // 17
	"g1 read S.size @q.go:199",        // 18
	"g1 write S.size @q.go:199",       // 19
	"g1 read S.size @q.go:200",        // 20: b
}

func aheadTrace(t *testing.T, lines []string) *trace.Trace {
	t.Helper()
	tr, err := trace.ReadTrace(strings.NewReader(strings.Join(lines, "\n")+"\n"), "t.txt", trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestAheadLen: the other goroutines' steps between a check and a later
// event of its unit are free to run before the check's critical section
// when no access of the unit there comes before a conflicting one of
// theirs (but the check's read against their writes of its variable),
// the unit only locks there, and the locks allow it; the length is then
// the one their last write of the checked variable stored.
func TestAheadLen(t *testing.T) {
	edit := func(f func(l []string) []string) []string {
		return f(append([]string(nil), goresilienceAhead...))
	}
	for _, tc := range []struct {
		name  string
		lines []string
		p, q  int
		n     int64
		ok    bool
	}{
		{"goresilience: the enqueuer's count and append, then the take and the uncount", goresilienceAhead, 2, 20, 2, true},
		{"up to the take", goresilienceAhead, 2, 14, 2, true},
		{"the take before the append (the dequeuer's write, then the enqueuer's read)", edit(func(l []string) []string {
			// g1's take (13-16) moves before g2's lock of jobsMu (9).
			return append(append(append(l[:9:9], l[13:17]...), l[9:13]...), l[17:]...)
		}), 2, 20, 0, false},
		{"the enqueuer reads what the dequeuer wrote since its check", edit(func(l []string) []string {
			l[3] = "g1 write S.other @q.go:143"
			l[6] = "g2 read S.other @q.go:193"
			return l
		}), 2, 20, 0, false},
		{"the dequeuer reads the count before the enqueuer's count", edit(func(l []string) []string {
			l[3] = "g1 read S.size @q.go:143"
			return l
		}), 2, 20, 0, false},
		{"both read one object: no conflict", edit(func(l []string) []string {
			l[3] = "g1 read S.in @q.go:143"
			l[6] = "g2 read S.in @q.go:193"
			return l
		}), 2, 20, 2, true},
		{"the dequeuer receives between", edit(func(l []string) []string {
			l[16] = "g1 recv wake @q.go:119"
			return l
		}), 2, 20, 0, false},
		{"the append records no length", edit(func(l []string) []string {
			l[11] = "g2 write Q.jobs @q.go:93"
			return l
		}), 2, 20, 0, false},
		{"the enqueuer takes a lock the dequeuer holds just before the check's section", edit(func(l []string) []string {
			// g1 takes policyMu before jobsMu and releases it after
			// taking jobsMu; g2 takes it in the stretch.
			l[0] = "g1 lock policyMu @q.go:1"
			l[4] = "g2 lock policyMu @q.go:89"
			l[8] = "g2 unlock policyMu @q.go:189"
			return append(append(l[:2:2], "g1 unlock policyMu @q.go:2"), l[2:]...)
		}), 3, 21, 0, false},
		{"the enqueuer keeps a lock the dequeuer took and released before it", edit(func(l []string) []string {
			l[4] = "g2 lock M @q.go:89"
			return append(append(l[:4:4], "g1 lock M @q.go:3", "g1 unlock M @q.go:3"), l[4:]...)
		}), 2, 22, 0, false},
		{"the enqueuer takes and releases a lock the dequeuer took and released before it", edit(func(l []string) []string {
			l[4] = "g2 lock M @q.go:89"
			l = append(append(l[:4:4], "g1 lock M @q.go:3", "g1 unlock M @q.go:3"), l[4:]...)
			return append(append(l[:11:11], "g2 unlock M @q.go:90"), l[11:]...)
		}), 2, 23, 2, true},
		{"no write of the checked variable between: the check's own length", edit(func(l []string) []string {
			l[10] = "g2 read S.z @q.go:93"
			l[11] = "g2 write S.z @q.go:93"
			return l
		}), 2, 20, 1, true},
		{"not the check's goroutine at q", goresilienceAhead, 2, 11, 0, false},
	} {
		tr := aheadTrace(t, tc.lines)
		n, ok := aheadLen(tr, tc.p, tc.q)
		if ok != tc.ok || ok && n != tc.n {
			t.Errorf("%s: aheadLen = %d, %v, want %d, %v", tc.name, n, ok, tc.n, tc.ok)
		}
	}
}

// TestLenAheads: Event.Ahead from the replay's trace for the check's
// later events of its unit with another unit's event between, after
// sliceLens; nothing without a check's length.
func TestLenAheads(t *testing.T) {
	tr := aheadTrace(t, goresilienceAhead)
	steps := []trace.Step{{G: "g1", Op: trace.Read, Obj: "Q.jobs"}, {G: "g2", Op: trace.Write, Obj: "S.size"}, {G: "g2", Op: trace.Write, Obj: "Q.jobs"}, {G: "g1", Op: trace.Read, Obj: "S.size"}}
	f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{0, 1, 2, 3}}}
	run := func(tested bool) []depend.Event {
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Var: 1, Read: true, Site: "check"},
			{Thread: 2, Unit: 2, Var: 2, Write: true, Site: "inc"},
			{Thread: 2, Unit: 2, Var: 1, Write: true, Site: "append"},
			{Thread: 1, Unit: 1, Var: 2, Read: true, Site: "dec"},
		}
		rt := &replayTrace{f: f, read: true, tr: tr, pos: []int{2, 7, 11, 20}}
		sliceLens(f, evs, func(site string) bool { return tested && site == "check" }, rt)
		lenAheads(f, evs, rt)
		return evs
	}
	evs := run(true)
	if want := []depend.Ahead{{To: 3, Len: 2}}; len(evs[0].Ahead) != 1 || evs[0].Ahead[0] != want[0] {
		t.Errorf("Ahead = %+v, want %+v", evs[0].Ahead, want)
	}
	for k := 1; k < len(evs); k++ {
		if evs[k].Ahead != nil {
			t.Errorf("event %d: Ahead = %+v, want none", k, evs[k].Ahead)
		}
	}
	if evs := run(false); evs[0].Ahead != nil {
		t.Errorf("no length-only check: Ahead = %+v, want none", evs[0].Ahead)
	}
}
