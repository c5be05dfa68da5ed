package check

import (
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestRestingWaiter: a lost signal whose replay left its waiter blocked
// after the test (AfterEnd) in a Wait where the recorded run also ended
// with it blocked (same goroutine, site and Cond) is not credited when a
// later signal woke the Wait of the schedule (Rewaited), or when in the
// recorded run the waiter only read and waited there again after the
// signal woke it; it stands when the recorded waiter took work after the
// signal, when the test hangs, or when the recorded end left the waiter
// at another Wait, another Cond, or free, or another goroutine there.
func TestRestingWaiter(t *testing.T) {
	const (
		gWaiter, gTicker, gOther = 0, 1, 2
		siteWait, siteSig        = 0, 1
		objL, objC, objC2        = 0, 1, 2
	)
	tr := &trace.Trace{Events: []trace.Event{
		{G: gWaiter, Op: trace.Unlock, Obj: objL, Site: siteWait}, // 0: the Wait's entry
		{G: gTicker, Op: trace.CondBroadcast, Obj: objC, Site: siteSig},
		{G: gWaiter, Op: trace.CondWait, Obj: objC, Site: siteWait},
		{G: gWaiter, Op: trace.Lock, Obj: objL, Site: siteWait},
		{G: gWaiter, Op: trace.Unlock, Obj: objL, Site: siteWait}, // waits again, till the end
	}}
	tr.Goroutines = []string{"g1.1.56.1", "g1.1.6.2", "g1.2"}
	tr.Sites = []string{"event.go:199:11", "event.go:238:4"}
	a := predict.Anomaly{Pattern: &pattern.Pattern{Kind: "deadlock", Name: "lost-signal", Cond: true}, Events: []int32{1, 0}}
	blockedAt := func(g, site, obj int32) *trace.Trace {
		c := *tr
		c.Blocked = []trace.Event{{G: g, Op: trace.CondWait, Obj: obj, Site: site, Flags: trace.FlagBlocked}}
		return &c
	}
	// The waiter takes work after the signal woke it: a write between
	// its Wait's return and its next Wait.
	worked := blockedAt(gWaiter, siteWait, objC)
	worked.Events = append(slices.Clone(worked.Events[:4]), trace.Event{G: gWaiter, Op: trace.Write, Obj: 3, Site: siteWait}, worked.Events[4])
	proved := replay.Verdict{Verdict: replay.Reproduced, Deadlocked: []string{"g1.1.56.1 in cond-wait @event.go:199:11"}, Rewaited: true, AfterEnd: true}
	with := func(f func(*replay.Verdict)) replay.Verdict { v := proved; f(&v); return v }
	for _, tc := range []struct {
		name string
		tr   *trace.Trace
		v    replay.Verdict
		want string
	}{
		{"at rest as recorded", blockedAt(gWaiter, siteWait, objC), proved, replay.Diverged},
		{"left in the lost Wait, idle in the recorded run", blockedAt(gWaiter, siteWait, objC), with(func(v *replay.Verdict) { v.Rewaited = false }), replay.Diverged},
		{"left in the lost Wait, working in the recorded run", worked, with(func(v *replay.Verdict) { v.Rewaited = false }), replay.Reproduced},
		{"woken again, working in the recorded run", worked, proved, replay.Diverged},
		{"the test hangs", blockedAt(gWaiter, siteWait, objC), with(func(v *replay.Verdict) { v.AfterEnd = false }), replay.Reproduced},
		{"recorded waiter got free", tr, proved, replay.Reproduced},
		{"recorded at another Cond", blockedAt(gWaiter, siteWait, objC2), proved, replay.Reproduced},
		{"recorded at another site", blockedAt(gWaiter, siteSig, objC), proved, replay.Reproduced},
		{"another goroutine recorded blocked", blockedAt(gOther, siteWait, objC), proved, replay.Reproduced},
	} {
		p := prediction{a: a, resting: restsAtEnd(tc.tr, a), idle: idleAfter(tc.tr, a)}
		got := restingWaiter(p, tc.v)
		if got.Verdict != tc.want {
			t.Errorf("%s: verdict %s, want %s (%s)", tc.name, got.Verdict, tc.want, got.Message)
		}
		if tc.want == replay.Diverged && len(got.Deadlocked) != 0 {
			t.Errorf("%s: Deadlocked %v", tc.name, got.Deadlocked)
		}
	}
	// Not a lost signal: never.
	p := prediction{a: predict.Anomaly{Pattern: &pattern.Pattern{Lock: true}, Events: []int32{1, 0}}}
	p.resting = restsAtEnd(blockedAt(gWaiter, siteWait, objC), p.a)
	if p.resting || idleAfter(tr, p.a) {
		t.Errorf("a lock pattern's anomaly rests at the end")
	}
}
