package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestOrderProof: an order violation (two critical sections in the other
// serial order) is proved only by a panic its replay raised in the
// package's code: not by one in its test, nor by a failed assertion or a
// hang (the other serial order may legitimately fail a test that kept
// the two apart by a sleep), nor by the recorded run's own panic.
func TestOrderProof(t *testing.T) {
	ps, _ := pattern.Builtin("order")
	if len(ps) != 1 || !ps[0].Order {
		t.Fatalf("order set %v: want one order pattern", ps)
	}
	p := ps[0]
	const nilDeref = "panic: runtime error: invalid memory address or nil pointer dereference at conn.go:36"
	for _, c := range []struct {
		name string
		v    replay.Verdict
		want bool
	}{
		{"nil dereference in package code", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn.go:36", Consequence: nilDeref}, true},
		{"second close in package code", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/b.go:45", Consequence: "panic: close of closed channel at b.go:45"}, true},
		{"the package's own panic (its contract)", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/pool.go:80", Consequence: "panic: pool stopped at pool.go:80"}, false},
		{"panic in the test", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn_test.go:12", Consequence: nilDeref}, false},
		{"panic without a frame of the module", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, Consequence: nilDeref}, false},
		{"the recorded run's own panic", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn.go:36", AsBaseline: true, Consequence: nilDeref}, false},
		{"failed assertion", replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: conn_test.go:9: got 1"}, false},
		{"hang", replay.Verdict{Verdict: replay.Reproduced, Passed: true, Hang: "g1.1 in chan receive"}, false},
		{"diverged with a package panic", replay.Verdict{Verdict: replay.Diverged, Panicked: true, PanicAt: "/m/x/conn.go:36"}, false},
	} {
		f := Finding{Anomaly: predict.Anomaly{Pattern: p}, Verdict: c.v}
		if got := f.Reproduced(); got != c.want {
			t.Errorf("%s: Reproduced = %v, want %v", c.name, got, c.want)
		}
		if got := f.Effect(); got != c.want {
			t.Errorf("%s: Effect = %v, want %v", c.name, got, c.want)
		}
		if f.WithoutEffect() || f.needsJudging() || f.wantsControl() || f.pairForGrouping() {
			t.Errorf("%s: judged, controlled or grouped like an atomicity violation", c.name)
		}
	}
	// A generated driver's two calls, in either order, are the package's
	// sequential use: no order patterns there.
	all, _ := pattern.Builtin("all")
	for _, q := range anomaliesOf("TestPecanvetDriver_Conn_Close_Get", all) {
		if q.Order {
			t.Errorf("a driver's patterns include %s", q.ID())
		}
	}
	if !slices.ContainsFunc(anomaliesOf("TestClose", all), func(q *pattern.Pattern) bool { return q.Order }) {
		t.Error("a test's patterns lack the order pattern")
	}
	// The same package panic proves nothing for other patterns' sake
	// alone: an atomicity violation's stays an ordinary effect.
	av := &pattern.Pattern{Kind: "av", Name: "RWW"}
	f := Finding{Anomaly: predict.Anomaly{Pattern: av}, Verdict: replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn_test.go:12"}}
	if !f.Reproduced() || !f.Effect() {
		t.Errorf("av with a panic in its test: Reproduced %v, Effect %v; want both", f.Reproduced(), f.Effect())
	}
}

// TestOrderGrouped: an order violation whose panic an atomicity
// violation of the same test shows too (notifyhint: the swap of Add's
// section before the loop's drains the queue that notify then indexes)
// is grouped under it; alone, it leads.
func TestOrderGrouped(t *testing.T) {
	ord, _ := pattern.Builtin("order")
	av, _ := pattern.Builtin("av")
	const panicked = "panic: runtime error: index out of range [0] with length 0 at expirer.go:38"
	mk := func(p *pattern.Pattern, sites ...string) Finding {
		return Finding{Package: "x", Test: "TestAdd",
			Anomaly: predict.Anomaly{Pattern: p, Sites: sites, Key: strings.Join(sites, "|")},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/expirer.go:38", Consequence: panicked}}
	}
	fs := []Finding{
		mk(ord[0], "x/expirer.go:20:11", "x/expirer.go:46:12"),
		mk(av[0], "x/expirer.go:21:21", "x/expirer.go:48:4", "x/expirer.go:22:13"),
	}
	group(fs)
	if fs[0].Lead != "x/expirer.go:21:21" || fs[1].Lead != "" || fs[1].Grouped != 1 {
		t.Errorf("leads %q, %q (grouped %d): want the av to lead the order violation", fs[0].Lead, fs[1].Lead, fs[1].Grouped)
	}
	alone := []Finding{mk(ord[0], "x/expirer.go:20:11", "x/expirer.go:46:12")}
	group(alone)
	if alone[0].Lead != "" {
		t.Errorf("an order violation alone is grouped under %q", alone[0].Lead)
	}
}

// TestOrderCapped: a trace over maxOrderEvents predicts no order
// violations (each a replay of the whole, long, test), the others all.
func TestOrderCapped(t *testing.T) {
	all, _ := pattern.Builtin("all")
	order := func(ps []*pattern.Pattern) bool {
		return slices.ContainsFunc(ps, func(q *pattern.Pattern) bool { return q.Order })
	}
	if !order(all) {
		t.Fatal("the all set has no order pattern")
	}
	if got := orderCapped(all, maxOrderEvents); !order(got) || len(got) != len(all) {
		t.Errorf("a trace of %d events lost patterns", maxOrderEvents)
	}
	got := orderCapped(all, maxOrderEvents+1)
	if order(got) || len(got) == len(all) || len(got) == 0 {
		t.Errorf("a trace of %d events: %d of %d patterns, order kept %v", maxOrderEvents+1, len(got), len(all), order(got))
	}
	if !order(all) {
		t.Error("orderCapped changed its argument")
	}
}
