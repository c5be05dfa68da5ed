package check

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/driver"
)

// TestSerialControls: the remote goroutine's steps inside the local
// unit's window move before its first event, then after its last; the
// prefix, the other goroutines' steps and the end stay.
func TestSerialControls(t *testing.T) {
	st := func(g string, site string) trace.Step {
		return trace.Step{G: g, Op: trace.Read, Obj: "x", Site: site, N: 1}
	}
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		st("g0", "p"), st("g1", "a"), st("g3", "o"), st("g2", "q"), st("g2", "b"), st("g1", "c"), st("g2", "z"),
	}, Anomaly: []int{1, 4, 5}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	if len(cs) != 2 {
		t.Fatalf("got %d controls, want 2", len(cs))
	}
	order := func(c *trace.Schedule) string {
		var b []string
		for _, x := range c.Steps {
			b = append(b, x.Site)
		}
		return strings.Join(b, " ")
	}
	for i, want := range []struct {
		steps   string
		anomaly []int
	}{
		{"p q b a o c z", []int{3, 2, 5}},
		{"p a o c", []int{1, 3}},
	} {
		if got := order(cs[i]); got != want.steps {
			t.Errorf("control %d: steps %s, want %s", i, got, want.steps)
		}
		for k, j := range cs[i].Anomaly {
			if j != want.anomaly[k] {
				t.Errorf("control %d: anomaly %v, want %v", i, cs[i].Anomaly, want.anomaly)
				break
			}
		}
	}
	// Their anomaly reads are changed reads, after which an exploring
	// control may run free (step numbers from 1, the write unknown).
	for i, want := range []string{"3>0 4>0 6>0", "2>0 4>0"} {
		var got []string
		for _, c := range cs[i].Changed {
			got = append(got, c.String())
		}
		if strings.Join(got, " ") != want {
			t.Errorf("control %d: changed %v, want %s", i, got, want)
		}
	}
	// g1 holds L at its first event: g2's steps go before its Lock.
	l := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		st("g0", "p"), {G: "g1", Op: trace.Lock, Obj: "L", Site: "l", N: 1}, st("g2", "q"), st("g1", "a"), st("g2", "b"), st("g1", "c"),
	}, Anomaly: []int{3, 4, 5}}
	if cs := serialControls(l, []int{1, 2, 1}, []int{1, 2, 1}); len(cs) != 2 || order(cs[0]) != "p q b l a c" {
		t.Errorf("under a lock: got %d controls, the first %v", len(cs), cs)
	}
	// The remote goroutine's leading region markers stay in the after
	// order, so the unit waits at its gate until the remote gets there
	// (out of a sleep), as in the schedule; its later steps go.
	mk := func(op trace.Op, site string) trace.Step {
		return trace.Step{G: "g2", Op: op, Obj: "F", Site: site, N: 1}
	}
	m := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		st("g0", "p"), st("g1", "a"), mk(trace.RegionBegin, "f"), mk(trace.RegionEnd, "e"), st("g2", "b"), mk(trace.RegionBegin, "h"), st("g1", "c"),
	}, Anomaly: []int{1, 4, 6}}
	if cs := serialControls(m, []int{1, 2, 1}, []int{1, 2, 1}); len(cs) != 2 || order(cs[1]) != "p a f e c" || len(cs[1].Anomaly) != 2 || cs[1].Anomaly[1] != 4 {
		t.Errorf("markers: got %d controls, the after one %v", len(cs), cs)
	}
	// g2 is forked inside the window by g3, after g3 sent to g4: the
	// before order moves g3's steps up to the fork, and g4's receive the
	// send waits for, ahead of the unit with g2's; moved alone, g2's
	// begin came before its fork (pond's Stop in a worker the test
	// forks) and the control blocked at once. g3's later step stays.
	op := func(g string, o trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: o, Obj: obj, Site: site, N: 1}
	}
	f := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		st("g0", "p"), st("g1", "a"), op("g3", trace.Send, "C", "s"), op("g4", trace.Recv, "C", "r"), op("g3", trace.Fork, "g2", "f"),
		op("g2", trace.Begin, "", "g"), st("g3", "t"), st("g2", "b"), st("g1", "c"),
	}, Anomaly: []int{1, 7, 8}}
	if cs := serialControls(f, []int{1, 2, 1}, []int{1, 2, 1}); len(cs) != 2 || order(cs[0]) != "p s r f g b a t c" || cs[0].Anomaly[0] != 6 || cs[0].Anomaly[1] != 5 {
		t.Errorf("forked in the window: got %d controls, the before one %v", len(cs), cs)
	}
	// Forked by the local goroutine inside its unit: the remote steps
	// wait on the unit, and only they move (no serial order has them
	// first; the replay blocks short of the unit).
	f.Steps[4].G, f.Steps[2].G = "g1", "g1"
	if cs := serialControls(f, []int{1, 2, 1}, []int{1, 2, 1}); len(cs) != 2 || order(cs[0]) != "p g b a s r f t c" {
		t.Errorf("forked by the unit: got %d controls, the before one %v", len(cs), cs)
	}
	// One goroutine's two units: no serial order to move them to.
	s.Steps[4].G = "g1"
	if cs := serialControls(s, []int{1, 1, 1}, []int{1, 2, 1}); cs != nil {
		t.Errorf("same goroutine: got %d controls, want none", len(cs))
	}
}

// TestSameFailure: a control counts only if it ran its whole schedule,
// or its local goroutine took another path inside the unit and the
// program ran on free, and failed with the same messages at the same
// places.
func TestSameFailure(t *testing.T) {
	cs := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Site: "p"}, {G: "g1", Op: trace.Read, Site: "a"}, {G: "g2", Op: trace.Write, Site: "b"}, {G: "g1", Op: trace.Read, Site: "c"},
	}, Anomaly: []int{1, 3}}
	diverged := func(g string, step int) replay.Verdict {
		return replay.Verdict{Verdict: replay.Diverged, Goroutine: g, Step: step, Consequence: "test fails: x_test.go:12: got 1, want 2"}
	}
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:12: got 1, want 2"}
	// The schedule failed at x_test.go:12 and, by its interleaving, at :20 too.
	lost := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:12: got 1, want 2; x_test.go:20: count = 2, want 3"}
	ctl := func(verdict, cons string) replay.Verdict { return replay.Verdict{Verdict: verdict, Consequence: cons} }
	for _, tc := range []struct {
		c, v replay.Verdict
		want bool
	}{
		{ctl(replay.Reproduced, "test fails: x_test.go:12: got 1, want 2"), v, true},
		// The same place, another value: the interleaving broke it otherwise.
		{ctl(replay.Reproduced, "test fails: x_test.go:12: got 0, want 2"), v, false},
		{replay.Verdict{Verdict: replay.Reproduced, Passed: true}, v, false},
		{ctl(replay.Reproduced, "test fails: x_test.go:15: got 1, want 2"), v, false},
		{ctl(replay.Diverged, "test fails: x_test.go:12: got 1, want 2"), v, false},
		// The unit took another path in the serial order and the
		// program ran on free: run.
		{replay.Verdict{Verdict: replay.Reproduced, Explored: true, Changed: 2, Goroutine: "g1", Step: 4, Consequence: v.Consequence}, v, true},
		{replay.Verdict{Verdict: replay.Reproduced, Interrupted: true, Goroutine: "g1", Step: 4, Consequence: v.Consequence}, v, true},
		// The same, but the runtime ended the process at the divergence
		// (or the step on another object): what it printed is no outcome.
		{diverged("g1", 4), v, false},
		{diverged("g1", 2), v, false},
		{replay.Verdict{Verdict: replay.WrongObject, Goroutine: "g1", Step: 4, Consequence: v.Consequence}, v, false},
		{replay.Verdict{Verdict: replay.Deadlock, Goroutine: "g1", Step: 4, Consequence: v.Consequence}, v, false},
		// Before the unit, or another goroutine: a step the control missed.
		{diverged("g1", 1), v, false},
		{diverged("g2", 3), v, false},
		{replay.Verdict{Verdict: replay.Reproduced, Interrupted: true, Goroutine: "g2", Step: 3, Consequence: "test fails: x_test.go:12: got 1, want 2"}, v, false},
		{replay.Verdict{Verdict: replay.Reproduced, Panicked: true, Consequence: "panic: boom at x_test.go:12"}, v, false},
		{ctl(replay.Reproduced, "test fails: x_test.go:12: got 1, want 2"), lost, false},
		{ctl(replay.Reproduced, "test fails: x_test.go:20: count = 2, want 3; x_test.go:12: got 1, want 2"), lost, true},
		// Hangs compare by where the goroutines wait, not which or how long.
		{ctl(replay.Reproduced, "the test hangs: every goroutine waits (for 2s; only a timer or I/O could still wake g1.1.3 chan receive at clock.go:194): g1 chan receive at main_test.go:14; g1.1.3 chan receive at clock.go:194"),
			ctl(replay.Reproduced, "the test hangs: every goroutine waits (for 3s; only a timer or I/O could still wake g1.1.2 chan receive at clock.go:194): g1 chan receive at main_test.go:14; g1.1.2 chan receive at clock.go:194"), true},
		{ctl(replay.Reproduced, "the test hangs: every goroutine waits: g1 chan receive at main_test.go:14; g1.1.3 lock at x.go:9"),
			ctl(replay.Reproduced, "the test hangs: every goroutine waits: g1 chan receive at main_test.go:14; g1.1.2 chan receive at clock.go:194"), false},
	} {
		if got := sameFailure(tc.c, cs, tc.v); got != tc.want {
			t.Errorf("sameFailure(%s %s@%d %q, %q) = %v, want %v", tc.c.Verdict, tc.c.Goroutine, tc.c.Step, tc.c.Consequence, tc.v.Consequence, got, tc.want)
		}
	}
}

// TestControlled: both serial orders failing, one of them the same way,
// or a serial order and the repeat passing, or the schedule passing with
// the goroutines it names no step of running free (unheld), make the
// failure not the interleaving's; a serial order passing while the
// repeat fails again, or both orders failing otherwise, leaves it unless
// unheld passes.
func TestControlled(t *testing.T) {
	defer func(f func(string, *trace.Schedule, int) bool) { unheldApartOf = f }(unheldApartOf)
	unheldApartOf = func(string, *trace.Schedule, int) bool { return true } // TestUnheldApart
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Site: "a"}, {G: "g2", Op: trace.Write, Site: "b"}, {G: "g1", Op: trace.Read, Site: "c"},
	}, Anomaly: []int{0, 1, 2}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:12: got 1, want 2"}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	other := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:12: got 0, want 2"}
	blocked := replay.Verdict{Verdict: replay.Deadlock, Step: 1, Goroutine: "g2", Consequence: "test fails"}
	// The after order (g1 a, g1 c) stuck at its second step, the unit's
	// last event, its goroutine blocked in uninstrumented code.
	// (A deadlock names the step that cannot come, not always its
	// goroutine.)
	waits := replay.Verdict{Verdict: replay.Deadlock, Step: 2, Outside: true, Consequence: "test fails"}
	waitsRecorded, waitsEarly := waits, waits
	waitsRecorded.Outside = false
	waitsEarly.Step = 1
	heldV := v
	heldV.Fired = []int{0}
	for _, tc := range []struct {
		name    string
		results map[string]replay.Verdict
		want    bool
		runs    string
	}{
		{"both fail", map[string]replay.Verdict{"before": v, "after": v}, true, "before after"},
		{"order", map[string]replay.Verdict{"before": pass, "after": v, "repeat": v}, false, "before repeat unheld"},
		{"timing", map[string]replay.Verdict{"before": pass, "after": v, "repeat": pass}, true, "before repeat"},
		{"after passes", map[string]replay.Verdict{"before": v, "after": pass, "repeat": pass}, true, "before after repeat"},
		{"other failure", map[string]replay.Verdict{"before": {Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:20: boom"}}, false, "before after unheld"},
		// gauge: both orders fail, neither as the schedule did.
		{"both fail otherwise", map[string]replay.Verdict{"before": other, "after": other}, false, "before after unheld"},
		// ratelimit: one order fails as the schedule did, the other hangs.
		{"both fail, one the same", map[string]replay.Verdict{"before": v, "after": other}, true, "before after"},
		{"other, then the same", map[string]replay.Verdict{"before": other, "after": v}, true, "before after"},
		// ratelimit: the schedule hangs on a clock, both orders fail
		// at an assertion; a hang on locks alone is the interleaving's.
		{"timer hang, both fail otherwise", map[string]replay.Verdict{"before": other, "after": other}, true, "before after"},
		{"timer hang, one order passes", map[string]replay.Verdict{"before": pass, "after": other, "repeat": v}, false, "before repeat unheld"},
		{"hard hang, both fail otherwise", map[string]replay.Verdict{"before": other, "after": other}, false, "before after unheld"},
		{"after unended", map[string]replay.Verdict{"before": v, "after": {Verdict: replay.Diverged, Explored: true, Step: 3, Unended: true, Consequence: "the test did not end within 30s"}}, false, "before after unheld"},
		// gcache's singleflight: the remote goroutine waits on what the
		// unit releases, so the before order deadlocks short of the
		// unit; the after order is the only serial one.
		{"before blocked, after the same", map[string]replay.Verdict{"before": blocked, "after": v}, true, "before after"},
		{"before blocked, after otherwise", map[string]replay.Verdict{"before": blocked, "after": other}, false, "before after unheld"},
		{"before blocked, after passes", map[string]replay.Verdict{"before": blocked, "after": pass, "repeat": v}, false, "before after repeat unheld"},
		{"before blocked, after passes, repeat passes", map[string]replay.Verdict{"before": blocked, "after": pass, "repeat": pass}, true, "before after repeat"},
		// logrus's TestWriterSplitNewlines: the unit scans an io.Pipe
		// the remote goroutine writes to, so the remote steps cannot
		// come first and the unit cannot end without them: no serial
		// order exists. On a recorded operation, before the unit, or
		// with a before order that ran, the effect stands as before.
		{"before blocked, after waits in the unit", map[string]replay.Verdict{"before": blocked, "after": waits}, true, "before after"},
		{"before blocked, after waits on a recorded operation", map[string]replay.Verdict{"before": blocked, "after": waitsRecorded}, false, "before after unheld"},
		{"before blocked, after stuck before the unit", map[string]replay.Verdict{"before": blocked, "after": waitsEarly}, false, "before after unheld"},
		{"before passes, after waits in the unit", map[string]replay.Verdict{"before": pass, "after": waits, "repeat": v}, false, "before repeat unheld"},
		{"before fails, after waits in the unit", map[string]replay.Verdict{"before": v, "after": waits}, false, "before after unheld"},
		{"before ends early", map[string]replay.Verdict{"before": {Verdict: replay.Ended, Consequence: "test fails: x_test.go:12: got 1, want 2"}, "after": v}, false, "before unheld"},
		{"repeat diverges early", map[string]replay.Verdict{"before": pass, "repeat": {Verdict: replay.Diverged, Goroutine: "g2", Step: 2, Passed: true}}, false, "before repeat unheld"},
		// go-quartz trigger.go:65: the schedule's clock fired inside the
		// unit (after step 1), the "before" order's while the unit's
		// goroutine waited for the moved steps (before step 1); both
		// fail the same way, "after" passes, and the repeat fails again.
		{"held over a timer", map[string]replay.Verdict{"before": heldV, "after": pass, "repeat": v}, true, "before after"},
		{"held over a timer, before did not fire", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v}, false, "before after repeat unheld"},
		{"held over a timer, before passes", map[string]replay.Verdict{"before": pass, "after": heldV, "repeat": v}, false, "before repeat unheld"},
		{"not held: schedule fired outside the unit", map[string]replay.Verdict{"before": heldV, "after": pass, "repeat": v}, false, "before after repeat unheld"},
		// go-quartz queue.go:244: the repeat fails again, but with the
		// goroutines the schedule names no step of running free the
		// same schedule passes; a control that needs no serial order.
		// pond's pool.go:164: the unit re-reads closed under the lock;
		// Stop before the unit fails the test as the schedule did, so
		// the failure is that order's. Without the re-check the same
		// results report it ("unheld fails again" below).
		{"recheck, before the same, after passes", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v, "unheld": v}, true, "before after"},
		{"recheck, before passes", map[string]replay.Verdict{"before": pass, "after": v, "repeat": v}, false, "before repeat unheld"},
		{"recheck, before otherwise", map[string]replay.Verdict{"before": other, "after": pass, "repeat": v}, false, "before after repeat unheld"},
		{"recheck, before blocked", map[string]replay.Verdict{"before": blocked, "after": pass, "repeat": v}, false, "before after repeat unheld"},
		{"unheld passes", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v, "unheld": pass}, true, "before after repeat unheld"},
		{"unheld passes, before ends early", map[string]replay.Verdict{"before": {Verdict: replay.Ended}, "unheld": pass}, true, "before unheld"},
		{"unheld fails again", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v, "unheld": v}, false, "before after repeat unheld"},
		{"unheld diverges", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v, "unheld": {Verdict: replay.Diverged, Goroutine: "g1", Step: 3, Passed: true}}, false, "before after repeat unheld unheld-again unheld-again2"},
		{"unheld diverges, then passes", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v, "unheld": {Verdict: replay.Diverged, Goroutine: "g1", Step: 1}, "unheld-again": pass}, true, "before after repeat unheld unheld-again"},
		{"unheld interrupted as the schedule", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v, "unheld": {Verdict: replay.Diverged, Interrupted: true, Goroutine: "g1", Step: 3, Actual: "g1 read @x.go:7 n=1", Passed: true}}, true, "before after repeat unheld"},
		{"unheld interrupted otherwise", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v, "unheld": {Verdict: replay.Diverged, Interrupted: true, Goroutine: "g1", Step: 3, Actual: "g1 read @x.go:9 n=1", Passed: true}}, false, "before after repeat unheld unheld-again unheld-again2"},
		{"unheld explores", map[string]replay.Verdict{"before": v, "after": pass, "repeat": v, "unheld": {Verdict: replay.Reproduced, Explored: true, Passed: true}}, false, "before after repeat unheld unheld-again unheld-again2"},
	} {
		var runs []string
		v := v
		switch {
		case strings.HasPrefix(tc.name, "timer hang"):
			v = replay.Verdict{Verdict: replay.Reproduced, Consequence: "the test hangs: every goroutine waits (for 2s; only a timer or I/O could still wake g1.2.3 chan receive at clock.go:194): g1 chan receive at main_test.go:14; g1.2 chan receive at x_test.go:265; g1.2.3 chan receive at clock.go:194"}
		case strings.HasPrefix(tc.name, "held"):
			v.Fired = []int{1}
		case strings.HasPrefix(tc.name, "not held"):
			v.Fired = []int{0, 3}
		case strings.HasPrefix(tc.name, "unheld interrupted"):
			v = replay.Verdict{Verdict: replay.Reproduced, Interrupted: true, Goroutine: "g1", Step: 3, Actual: "g1 read @x.go:7 n=1", Consequence: v.Consequence}
		case strings.HasPrefix(tc.name, "hard hang"):
			v = replay.Verdict{Verdict: replay.Reproduced, Consequence: "the test hangs: every goroutine waits: g1 chan receive at main_test.go:14; g1.2 lock at x.go:9"}
		}
		got := controlled(cs, nil, -1, s, v, "", strings.HasPrefix(tc.name, "recheck"), nil, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			runs = append(runs, name)
			if r, ok := tc.results[name]; ok || name != unheldName {
				return r, true
			}
			return v, true // unheld fails as the schedule did, unless said
		})
		if (got != "") != tc.want || strings.Join(runs, " ") != tc.runs {
			t.Errorf("%s: controlled = %q after %v, want a reason %v after %s", tc.name, got, runs, tc.want, tc.runs)
		}
	}
	// Stopped: no reason.
	if got := controlled(cs, nil, -1, s, v, "", false, nil, func(string, string, *trace.Schedule) (replay.Verdict, bool) { return v, false }); got != "" {
		t.Errorf("stopped: controlled = %q, want none", got)
	}
}

// TestControlledLogLines: yamux's TestSendData_Small logs a random port
// before it fails ("session_test.go:143: Connecting to tcp: [::]:<port>");
// its recorded run printed that line too, so it is no failure, and the
// controls that fail as the schedule did compare equal to it. Without
// the recording's log lines, every run's port differs, and no control
// fails the same way.
func TestControlledLogLines(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Site: "a"}, {G: "g2", Op: trace.Write, Site: "b"}, {G: "g1", Op: trace.Read, Site: "c"},
	}, Anomaly: []int{0, 1, 2}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	out := func(port, fail string) string {
		return "=== RUN   TestSendData_Small\n    session_test.go:143: Connecting to tcp: [::]:" + port + "\n" + fail +
			"--- FAIL: TestSendData_Small (1.20s)\nFAIL\n"
	}
	recorded := strings.Replace(out("41000", ""), "--- FAIL", "--- PASS", 1)
	failed := func(o replay.Options, port, fail string) replay.Verdict {
		_, c := o.Consequence(out(port, fail), false)
		return replay.Verdict{Verdict: replay.Reproduced, Consequence: c}
	}
	eof := "    session_test.go:600: err: EOF\n"
	for _, tc := range []struct {
		name          string
		logged        bool
		before, after string
		want          bool
	}{
		{"logged, both the same", true, eof, eof, true},
		{"not logged, both the same", false, eof, eof, false},
		// The failures themselves still differ by their values.
		{"logged, both otherwise", true, "    session_test.go:600: err: stream closed\n", "    session_test.go:600: err: session shutdown\n", false},
	} {
		var o replay.Options
		if tc.logged {
			o.Logged = replay.LogLines(recorded, true)
		}
		v := failed(o, "38001", eof)
		results := map[string]replay.Verdict{"before": failed(o, "45002", tc.before), "after": failed(o, "46003", tc.after)}
		got := controlled(cs, nil, -1, s, v, "", false, nil, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			return results[name], true
		})
		if (got != "") != tc.want {
			t.Errorf("%s: controlled = %q (schedule: %q), want a reason %v", tc.name, got, v.Consequence, tc.want)
		}
	}
}

// TestWantsControl: only a reproduced atomicity or atomic-set violation
// whose report rests on a failed test gets controls; a data race (adjacent,
// reported as such), a generated driver's finding and one with nothing to
// compare do not.
func TestWantsControl(t *testing.T) {
	av := &pattern.Pattern{Kind: "av", Name: "RWW", T: []int{1, 2, 1}, AR: []int{1, 2, 1}}
	race := &pattern.Pattern{Kind: "race", Name: "RW", Adjacent: true, T: []int{1, 2}, AR: []int{1, 2}}
	mk := func(p *pattern.Pattern, test, cons string) *Finding {
		return &Finding{
			Anomaly:  predict.Anomaly{Pattern: p},
			Test:     test,
			Verdict:  replay.Verdict{Verdict: replay.Reproduced, Consequence: cons},
			Schedule: &trace.Schedule{Anomaly: make([]int, len(p.T))},
		}
	}
	for _, tc := range []struct {
		name string
		f    *Finding
		want bool
	}{
		{"av failing", mk(av, "TestX", "test fails: x_test.go:1: boom"), true},
		{"race failing", mk(race, "TestX", "test fails: x_test.go:1: boom"), false},
		{"driver", mk(av, driver.Prefix+"A_B", "test fails: x_test.go:1: boom"), false},
		{"no consequence", mk(av, "TestX", ""), false},
	} {
		if tc.name == "no consequence" {
			tc.f.Verdict.Passed = true
		}
		if got := tc.f.wantsControl(); got != tc.want {
			t.Errorf("%s: wantsControl = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestControlExplored: an explored verdict's controls explore too, and an
// explored control counts as run if it went free from a changed read of
// its anomaly (even one of the remote steps moved ahead of the unit):
// both serial orders failing the same way after their changed reads
// make the failure the held prefix's (go-quartz queue.go:166), while a
// serial order that passes keeps it (divergecta's "after" order).
func TestControlExplored(t *testing.T) {
	cs := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Site: "p"}, {G: "g1", Op: trace.Read, Site: "a"}, {G: "g2", Op: trace.Write, Site: "b"}, {G: "g1", Op: trace.Read, Site: "c"},
	}, Anomaly: []int{1, 3}}
	cons := "test fails: scheduler_test.go:100: response is nil is not nil"
	explored := func(g string, step int) replay.Verdict {
		return replay.Verdict{Verdict: replay.Reproduced, Explored: true, Goroutine: g, Step: step, Changed: step - 1, Consequence: cons}
	}
	v := explored("g1", 4)
	noRead := explored("g1", 3)
	noRead.Changed = 0
	for _, tc := range []struct {
		c    replay.Verdict
		want bool
	}{
		{explored("g1", 3), true},
		{explored("g2", 3), true}, // the remote goroutine's read changed, inside the unit
		{explored("g2", 2), true}, // the remote's read, ahead of the unit ("before")
		{noRead, false},           // no changed read it went free from
	} {
		if got := sameFailure(tc.c, cs, v); got != tc.want {
			t.Errorf("sameFailure(explored %s@%d) = %v, want %v", tc.c.Goroutine, tc.c.Step, got, tc.want)
		}
	}

	// controlItems: the controls of an explored verdict explore, and
	// the serial orders always do. A control that may not explore stops
	// at its changed read (Diverged, in the remote goroutine, before the
	// unit) and proves nothing.
	p := &pattern.Pattern{Kind: "av", Name: "RWR", T: []int{1, 2, 1}, AR: []int{1, 2, 1}}
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Obj: "x", Site: "a", N: 1}, {G: "g2", Op: trace.Write, Obj: "x", Site: "b", N: 1}, {G: "g1", Op: trace.Read, Obj: "x", Site: "c", N: 1},
	}, Anomaly: []int{0, 1, 2}}
	for _, tc := range []struct {
		name     string
		explored bool
		passes   string // the control order whose free run passes
		want     bool
	}{
		{"explored, both orders fail the same way", true, "", true},
		{"explored, the after order passes", true, "after", false},
		{"not explored", false, "", true},
		// lossyconn's after order: the unit takes another path there.
		// Stopped at the divergence, its process ended ("test fails"),
		// which counted as a failure of that order; run free, it passes.
		{"not explored, the after order passes past its divergence", false, "after", false},
	} {
		type ran struct {
			dir     string
			explore bool
			whole   bool
		}
		var opts []ran
		runControl = func(ctx context.Context, b *testbin.Build, pkg, test string, pr prediction, dir string, o replay.Options) replay.Verdict {
			opts = append(opts, ran{dir, o.Explore, o.WholeRun})
			if tc.passes != "" && (strings.HasSuffix(dir, "-"+tc.passes) || strings.HasSuffix(dir, "-"+tc.passes+againSuffix)) {
				if !o.Explore {
					return replay.Verdict{Verdict: replay.Diverged, Goroutine: "g1", Step: 2, Consequence: "test fails"}
				}
				return replay.Verdict{Verdict: replay.Diverged, Explored: true, Goroutine: "g1", Step: 2, Changed: 1, Passed: true}
			}
			if !tc.explored {
				return replay.Verdict{Verdict: replay.Reproduced, Consequence: cons}
			}
			if !o.Explore {
				return replay.Verdict{Verdict: replay.Diverged, Goroutine: "g1", Step: 1, Consequence: "test fails"}
			}
			if strings.HasSuffix(dir, "-repeat") {
				return explored("g1", 3)
			}
			return explored("g1", 2)
		}
		q := newReplayQueue(context.Background(), nil, "p", time.Time{}, Options{}, map[string]bool{})
		g := &qGroup{test: "TestScheduler", dir: t.TempDir()}
		it := &qItem{g: g, p: prediction{a: predict.Anomaly{Pattern: p}}, s: s, state: pDone,
			v: replay.Verdict{Verdict: replay.Reproduced, Explored: tc.explored, Goroutine: "g1", Step: 3, Consequence: cons}}
		q.items = []*qItem{it}
		q.controlItems(&Report{})
		if got := it.control != ""; got != tc.want {
			t.Errorf("%s: control %q, want a reason %v", tc.name, it.control, tc.want)
		}
		// The serial orders explore always, the others as the
		// schedule's replay did.
		for _, r := range opts {
			order := strings.TrimSuffix(r.dir, againSuffix) // a serial order's second run (againIfPassed)
			want := tc.explored || strings.HasSuffix(order, "-before") || strings.HasSuffix(order, "-after")
			if r.explore != want {
				t.Errorf("%s: control %s ran with Explore %v, want %v", tc.name, filepath.Base(r.dir), r.explore, want)
			}
			// Only the recorded order's free run is looked through
			// whole (interleavingIn): it is recorded whole.
			if whole := strings.HasSuffix(r.dir, "-"+recordedName); r.whole != whole {
				t.Errorf("%s: control %s ran with WholeRun %v, want %v", tc.name, filepath.Base(r.dir), r.whole, whole)
			}
		}
	}
	runControl = replayRetrying
}

// TestRecordedFails: ratelimit's TestInitial failed at its timestamps
// check in every replay, in a subtest the schedule ran in the recorded
// order, and with other timestamps in the violation's subtest than its
// serial orders did. The recorded order, replayed up to the unit, fails at
// that place too: no evidence. A failure at a place it passes, a panic,
// or a recorded order that does not run stands.
func TestRecordedFails(t *testing.T) {
	st := func(g, site string) trace.Step { return trace.Step{G: g, Op: trace.Read, Obj: "x", Site: site, N: 1} }
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		st("g0", "p"), st("g0", "q"), st("g1", "a"), st("g2", "b"), st("g1", "c"),
	}, Anomaly: []int{2, 3, 4}}
	rec := recordedControl(s, 4)
	if rec == nil || len(rec.Steps) != 2 || rec.Steps[1].Site != "q" || len(rec.Anomaly) != 1 || rec.Anomaly[0] != 1 {
		t.Fatalf("recordedControl(prefix 4) = %+v, want the 2 steps before the unit, the last as its anomaly", rec)
	}
	if got := recordedControl(s, 1); got == nil || len(got.Steps) != 1 {
		t.Errorf("recordedControl(prefix 1) = %+v, want the prefix's 1 step", got)
	}
	// It stops at the earliest anomaly step, whichever event it is.
	w := &trace.Schedule{Pattern: s.Pattern, Steps: s.Steps, Anomaly: []int{4, 1, 3}}
	if got := recordedControl(w, 4); got == nil || len(got.Steps) != 1 {
		t.Errorf("recordedControl(anomaly 4 1 3) = %+v, want the 1 step before step 1", got)
	}
	if got := recordedControl(s, 0); got != nil {
		t.Errorf("recordedControl(prefix 0) = %+v, want none", got)
	}
	fails := func(c string) replay.Verdict {
		return replay.Verdict{Verdict: replay.Reproduced, Consequence: c, Scheduled: c}
	}
	v := fails("test fails: r_test.go:270: Not equal: expected: []time.Duration{0, 100}, actual: []time.Duration{200, -100}; r_test.go:270: Not equal: expected: []time.Duration{0, 100}, actual: []time.Duration{200, -200}")
	recV := fails("test fails: r_test.go:270: Not equal: expected: []time.Duration{0, 100}, actual: []time.Duration{200, -200}")
	for _, tc := range []struct {
		name string
		v    replay.Verdict
		rec  replay.Verdict
		ran  bool
		want bool
		// inter: 0 the run's interleaving is not asked about; 1 it
		// shows the anomaly's sites interleaved; 2 it does not.
		inter int
	}{
		{"fails at the same place, other values", v, recV, true, true, 0},
		{"fails at a place more", fails(v.Consequence[:len("test fails: ")] + "r_test.go:131: count 3; " + v.Consequence[len("test fails: "):]), recV, true, false, 0},
		{"recorded order passes", v, replay.Verdict{Verdict: replay.Reproduced, Passed: true}, true, false, 0},
		{"recorded order diverges", v, replay.Verdict{Verdict: replay.Diverged, Consequence: recV.Consequence, Scheduled: recV.Consequence}, true, false, 0},
		// Failed only once it ran free: the bug may have struck.
		{"recorded order fails after its end", v, replay.Verdict{Verdict: replay.Reproduced, Consequence: recV.Consequence}, true, false, 0},
		{"recorded order fails after its end, interleaving the sites", v, replay.Verdict{Verdict: replay.Reproduced, Consequence: recV.Consequence, Trace: "r.trace"}, true, false, 1},
		// ... unless that run never interleaved the sites (gocron).
		{"recorded order fails after its end, never interleaving", v, replay.Verdict{Verdict: replay.Reproduced, Consequence: recV.Consequence, Trace: "r.trace"}, true, true, 2},
		{"recorded order passes after its end, never interleaving", v, replay.Verdict{Verdict: replay.Reproduced, Passed: true, Trace: "r.trace"}, true, false, 2},
		{"recorded order fails elsewhere after its end, never interleaving", v, replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: r_test.go:9: x", Trace: "r.trace"}, true, false, 2},
		{"recorded order killed", v, replay.Verdict{Verdict: replay.Reproduced, Consequence: recV.Consequence, Scheduled: recV.Consequence, Unended: true}, true, false, 0},
		{"schedule panics", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, Consequence: "panic: boom at r.go:3"}, recV, false, false, 0},
		{"schedule hangs", fails("the test hangs: every goroutine waits: g1 lock at r.go:9"), recV, false, false, 0},
	} {
		ran := false
		var inter func(string) bool
		if tc.inter > 0 {
			inter = func(path string) bool {
				if path != "r.trace" {
					t.Errorf("%s: asked about %q, want the control's trace", tc.name, path)
				}
				return tc.inter == 1
			}
		}
		got := recordedFails(rec, tc.v, inter, func(name, _ string, c *trace.Schedule) (replay.Verdict, bool) {
			ran = name == "recorded" && c == rec
			return tc.rec, true
		})
		if (got != "") != tc.want || ran != tc.ran {
			t.Errorf("%s: recordedFails = %q (ran %v), want a reason %v (ran %v)", tc.name, got, ran, tc.want, tc.ran)
		}
	}
	if got := recordedFails(nil, v, nil, nil); got != "" {
		t.Errorf("no recorded order: recordedFails = %q, want none", got)
	}
}

// TestFailuresCompare: two failures compare by place and message, values
// included (another value is another failure), in any order, an address
// or a measured duration aside.
func TestFailuresCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"test fails: x_test.go:9: Not equal: expected: 60, actual: 40", "test fails: x_test.go:9: Not equal: expected: 60, actual: 50", false},
		{"test fails: a.go:1: x; b.go:2: y", "test fails: b.go:2: y; a.go:1: x; a.go:1: x", true},
		{"test fails: x_test.go:9: Not equal: expected: (chan int)(0xc000012345), actual: (chan int)(nil)", "test fails: x_test.go:9: Not equal: expected: (chan int)(0xc0000a6780), actual: (chan int)(nil)", true},
		{"test fails: x_test.go:9: count 100000000", "test fails: x_test.go:9: count 200000000", false},
		// A measured time is the clock's, not a value the interleaving
		// computed: lossyconn's TestScheduledPeerProfiles.
		{"test fails: lossypacket_test.go:524: scheduled recovery delay was not applied: elapsed=24.9ms", "test fails: lossypacket_test.go:524: scheduled recovery delay was not applied: elapsed=18ms", true},
		{"test fails: x_test.go:9: took 1.2s, want < 1s", "test fails: x_test.go:9: took 3m2.5s, want < 1s", true},
		{"test fails: x_test.go:9: waited 350µs (-5ms late)", "test fails: x_test.go:9: waited 12ns (3h0m0s late)", true},
		// Other values beside the duration still count, and so does a
		// unit in a word.
		{"test fails: x_test.go:9: elapsed=24.9ms, got 3 packets", "test fails: x_test.go:9: elapsed=18ms, got 2 packets", false},
		{"test fails: x_test.go:9: want 1s, got 1s", "test fails: x_test.go:9: want 1s, got 2 items", false},
		{"test fails: x_test.go:9: got 10msgs", "test fails: x_test.go:9: got 12msgs", false},
		{"test fails: x_test.go:9: got v2s", "test fails: x_test.go:9: got v3s", false},
		{"test fails: x_test.go:9: version 1.2s", "test fails: x_test.go:9: version 1.3.2s", false},
	} {
		if got := failures(tc.a) == failures(tc.b); got != tc.same {
			t.Errorf("failures(%q) == failures(%q): %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// TestControlledTimingCount: go-quartz's TestScheduler_PauseResume
// counts a 10 ms job's runs after a 55 ms sleep. Its recorded run failed
// the count, the schedule with another count, and both serial orders with
// counts of their own: the same check fails in every run, schedule or
// none, so the values follow the timing. Without the recorded run
// failing there, or with a control failing elsewhere, the failure stands
// (gauge's control holds another instance of the bug: -1, not -2).
func TestControlledTimingCount(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/WRW", Steps: []trace.Step{
		{G: "g1", Op: trace.Write, Site: "a"}, {G: "g2", Op: trace.Read, Site: "b"}, {G: "g1", Op: trace.Write, Site: "c"},
	}, Anomaly: []int{0, 1, 2}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	count := func(n string) replay.Verdict {
		return replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: scheduler_test.go:538: " + n + " != 10"}
	}
	elsewhere := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: scheduler_test.go:526: 4 != 5"}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	v := count("7")
	for _, tc := range []struct {
		name     string
		baseline string
		results  map[string]replay.Verdict
		want     bool
	}{
		{"recorded run and both orders fail the count", "test fails: scheduler_test.go:538: 8 != 10", map[string]replay.Verdict{"before": count("6"), "after": count("9")}, true},
		{"the recorded run passed", "", map[string]replay.Verdict{"before": count("6"), "after": count("9")}, false},
		{"the recorded run failed elsewhere", elsewhere.Consequence, map[string]replay.Verdict{"before": count("6"), "after": count("9")}, false},
		{"a control fails elsewhere too", "test fails: scheduler_test.go:538: 8 != 10", map[string]replay.Verdict{"before": elsewhere, "after": count("9")}, false},
		{"a control passes, the repeat fails", "test fails: scheduler_test.go:538: 8 != 10", map[string]replay.Verdict{"before": pass, "after": count("9"), "repeat": count("7")}, false},
	} {
		got := controlled(cs, nil, -1, s, v, tc.baseline, false, nil, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			return tc.results[name], true
		})
		if (got != "") != tc.want {
			t.Errorf("%s: controlled = %q, want a reason %v", tc.name, got, tc.want)
		}
	}
	if got := places("test fails: b_test.go:9: x; a_test.go:3: y; b_test.go:9: z"); got != "a_test.go:3 b_test.go:9" {
		t.Errorf("places = %q", got)
	}
}

// TestUncutCount: ulule/limiter's TestCacheIncrementConcurrent, whose
// recording its event cap ended long before its final sum check. The
// schedule fails the sum (cache_test.go:79) with one value, both serial
// orders and the recorded order (free after its end, where the sites
// interleave as they do in any run of the test) with others. controlled
// has no recorded failure to compare with and recordedFails will not take
// a free run that interleaves, so the effect stood; uncutCount takes the
// recorded order's failure at the same check as the missing recorded
// run's. Any control that passes, hangs, is killed, panics or fails
// elsewhere leaves the failure standing.
func TestUncutCount(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RRW", Steps: []trace.Step{
		{G: "g1", Op: trace.Write, Site: "p", Obj: "x", N: 1},
		{G: "g2", Op: trace.AtomicLoad, Site: "a", Obj: "m", N: 1}, {G: "g3", Op: trace.AtomicLoad, Site: "a", Obj: "m", N: 1}, {G: "g2", Op: trace.AtomicRMW, Site: "b", Obj: "m", N: 1},
	}, Anomaly: []int{1, 2, 3}}
	p := &pattern.Pattern{T: []int{1, 2, 1}, AR: []int{1, 2, 1}}
	cs := serialControls(s, p.T, p.AR)
	if len(cs) != 2 {
		t.Fatalf("serialControls = %d schedules, want 2", len(cs))
	}
	rec := recordedControl(s, 1)
	sum := func(n string) replay.Verdict {
		return replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: cache_test.go:79: Not equal: expected: 11674750, actual: " + n}
	}
	v := sum("8999155")
	elsewhere := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: cache_test.go:80: Should be true"}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	killed := sum("9651778")
	killed.Unended = true
	hangs := replay.Verdict{Verdict: replay.Reproduced, Consequence: "the test did not end within 30s"}
	limiter := map[string]replay.Verdict{"before": sum("11688017"), "after": sum("7400407"), "unheld": sum("8082369"), "unheld-again": sum("9049965"), "unheld-again2": sum("8450753"), "recorded": sum("536272")}
	with := func(name string, c replay.Verdict) map[string]replay.Verdict {
		m := maps.Clone(limiter)
		m[name] = c
		return m
	}
	without := func(name string) map[string]replay.Verdict {
		m := maps.Clone(limiter)
		delete(m, name)
		return m
	}
	for _, tc := range []struct {
		name string
		v    replay.Verdict
		ran  map[string]replay.Verdict
		want bool
	}{
		{"limiter: every control fails the sum with its own value", v, limiter, true},
		{"the recorded order passes", v, with("recorded", pass), false},
		{"the recorded order is killed at the time bound", v, with("recorded", killed), false},
		{"the recorded order hangs", v, with("recorded", hangs), false},
		{"the recorded order fails elsewhere", v, with("recorded", elsewhere), false},
		{"the recorded order was not run", v, without("recorded"), false},
		{"the before order passes", v, with("before", pass), false},
		{"the after order fails elsewhere", v, with("after", elsewhere), false},
		{"the after order was not run", v, without("after"), false},
		{"the schedule fails at a check more", replay.Verdict{Verdict: replay.Reproduced, Consequence: v.Consequence + "; " + elsewhere.Consequence[len("test fails: "):]}, limiter, false},
		{"the schedule panics", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, Consequence: "panic: boom at cache.go:3"}, limiter, false},
	} {
		if got := uncutCount(cs, tc.v, tc.ran); (got != "") != tc.want {
			t.Errorf("%s: uncutCount = %q, want a reason %v", tc.name, got, tc.want)
		}
	}
	// Without it, the limiter's controls excuse nothing: no recorded
	// failure to compare with, and a recorded order that fails only in a
	// free run that interleaves the sites.
	run := func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) { return limiter[name], true }
	if got := controlled(cs, nil, -1, s, v, "", false, nil, run); got != "" {
		t.Errorf("controlled = %q, want none (the case uncutCount is for)", got)
	}
	if got := recordedFails(rec, v, func(string) bool { return true }, run); got != "" {
		t.Errorf("recordedFails = %q, want none (the case uncutCount is for)", got)
	}
	if got := uncutCount(nil, v, limiter); got != "" {
		t.Errorf("no serial orders: uncutCount = %q, want none", got)
	}
}

// TestUnheldApart: the unheld control counts only if the goroutines it
// freed touched nothing the schedule's steps wrote from the anomaly's
// first step on, and wrote nothing they read (go-quartz's job run reads
// its own job; a consumer of the anomaly's state must not count).
func TestUnheldApart(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Fork, Site: "m.go:1:1", N: 1},
		{G: "g1", Op: trace.Read, Obj: "q#1", Site: "x.go:1:1", N: 1},
		{G: "g2", Op: trace.Write, Obj: "q#1", Site: "x.go:2:1", N: 1},
		{G: "g1", Op: trace.Read, Obj: "q#1", Site: "x.go:3:1", N: 1},
	}, Anomaly: []int{1, 2, 3}}
	for _, tc := range []struct {
		name, free string
		want       bool
	}{
		{"apart", "g1.1 write job#1 @j.go:1:1\ng1.1 read q#2 @j.go:2:1\n", true},
		{"reads what the unit's remote wrote", "g1.1 read q#1 @j.go:3:1\n", false},
		{"writes what the unit read", "g1.1 write q#1 @j.go:4:1\n", false},
		{"locks what the schedule locks", "g1.1 lock mu#1 @j.go:5:1\n", false},
	} {
		path := filepath.Join(t.TempDir(), "replay.trace")
		text := "# pecanvet trace v1\ng1 fork g1.1 @m.go:1:1\ng1 read q#1 @x.go:1:1\n" + tc.free +
			"g2 lock mu#1 @x.go:9:1\ng2 write q#1 @x.go:2:1\ng1 read q#1 @x.go:3:1\n"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s := *s
		s.Steps = slices.Insert(slices.Clone(s.Steps), 2, trace.Step{G: "g2", Op: trace.Lock, Obj: "mu#1", Site: "x.go:9:1", N: 1})
		s.Anomaly = []int{1, 3, 4}
		if got := unheldApart(path, &s, 1); got != tc.want {
			t.Errorf("%s: unheldApart = %v, want %v", tc.name, got, tc.want)
		}
	}
	if unheldApart("", s, 1) {
		t.Error("no trace: apart")
	}
}

// TestUnheldApartTestCheck: a free goroutine's write (under a lock) that
// only the test's own check reads later in the window is allowed
// (ttlcache's expiration callback setting the test's flag); not when it
// comes after the check, when a program event of the window touches the
// object, or when it is one of the anomaly's objects.
func TestUnheldApartTestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, free, check string
		want              bool
	}{
		{"before the test's check", "g1.1 lock mu#2 @cb_test.go:1:1\ng1.1 write flag#1 @cb_test.go:2:1\ng1.1 unlock mu#2 @cb_test.go:1:2\n", "", true},
		{"after the test's check", "", "g1.1 write flag#1 @cb_test.go:2:1\n", false},
		{"a program site reads it", "g1.1 write q#2 @cb_test.go:2:1\n", "", false},
		{"the anomaly's object", "g1.1 write q#1 @cb_test.go:2:1\n", "", false},
	} {
		s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
			{G: "g1", Op: trace.Fork, Site: "m.go:1:1", N: 1},
			{G: "g1", Op: trace.Read, Obj: "q#1", Site: "x.go:1:1", N: 1},
			{G: "g2", Op: trace.Write, Obj: "q#1", Site: "x.go:2:1", N: 1},
			{G: "g1", Op: trace.Read, Obj: "q#1", Site: "x.go:3:1", N: 1},
			{G: "g1", Op: trace.Lock, Obj: "mu#2", Site: "t_test.go:9:1", N: 1},
			{G: "g1", Op: trace.Read, Obj: "flag#1", Site: "t_test.go:10:1", N: 1},
			{G: "g1", Op: trace.Unlock, Obj: "mu#2", Site: "t_test.go:11:1", N: 1},
			{G: "g2", Op: trace.Read, Obj: "q#2", Site: "x.go:4:1", N: 1},
		}, Anomaly: []int{1, 2, 3}}
		path := filepath.Join(t.TempDir(), "replay.trace")
		text := "# pecanvet trace v1\ng1 fork g1.1 @m.go:1:1\ng1 read q#1 @x.go:1:1\n" + tc.free +
			"g2 write q#1 @x.go:2:1\ng1 read q#1 @x.go:3:1\ng1 lock mu#2 @t_test.go:9:1\ng1 read flag#1 @t_test.go:10:1\ng1 unlock mu#2 @t_test.go:11:1\n" + tc.check +
			"g2 read q#2 @x.go:4:1\n"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := unheldApart(path, s, 1); got != tc.want {
			t.Errorf("%s: unheldApart = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestInterleavingIn: a run shows the anomaly when its sites come in the
// pattern's order, by the pattern's goroutines, on one object; not when
// the remote write falls outside, is the same goroutine's, or touches
// another object. An unreadable trace counts as showing it.
func TestInterleavingIn(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Obj: "x#1", Site: "a.go:1:1", N: 1},
		{G: "g2", Op: trace.Write, Obj: "x#1", Site: "b.go:1:1", N: 1},
		{G: "g1", Op: trace.Read, Obj: "x#1", Site: "a.go:2:1", N: 1},
	}, Anomaly: []int{0, 1, 2}}
	T, SV, AR := []int{1, 2, 1}, []int{1, 1, 1}, []int{1, 2, 1}
	ra, w, rc := "g1 read x#1 @a.go:1:1\n", "g2 write x#1 @b.go:1:1\n", "g1 read x#1 @a.go:2:1\n"
	for _, tc := range []struct {
		name, events string
		want         bool
	}{
		{"interleaved", ra + w + rc, true},
		{"interleaved later, after a serial pair", ra + rc + "g2 write x#1 @b.go:1:1\n" + ra + w + rc, true},
		{"serial", ra + rc + w, false},
		{"the write first", w + ra + rc, false},
		{"one goroutine", ra + "g1 write x#1 @b.go:1:1\n" + rc, false},
		{"another object", ra + "g2 write y#1 @b.go:1:1\n" + rc, false},
		{"the reads on two objects", "g1 read y#1 @a.go:1:1\n" + w + rc, false},
	} {
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte("# pecanvet trace v1\n"+tc.events), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := interleavingIn(path, s, T, SV, AR); got != tc.want {
			t.Errorf("%s: interleavingIn = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !interleavingIn(filepath.Join(t.TempDir(), "none"), s, T, SV, AR) || !interleavingIn("", s, T, SV, AR) {
		t.Error("no trace: want true")
	}
}

// TestInterleavingInUnit: with the unit's call known from the schedule
// (scheduleNextRun around both NextRun reads), a remote write between
// two calls' reads is no instance; one inside a call is.
func TestInterleavingInUnit(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.RegionBegin, Obj: "run", N: 1},
		{G: "g1", Op: trace.Read, Obj: "x#1", Site: "a.go:1:1", N: 1},
		{G: "g2", Op: trace.Write, Obj: "x#1", Site: "b.go:1:1", N: 1},
		{G: "g1", Op: trace.Read, Obj: "x#1", Site: "a.go:1:1", N: 2},
	}, Anomaly: []int{1, 2, 3}}
	T, SV, AR := []int{1, 2, 1}, []int{1, 1, 1}, []int{1, 2, 1}
	if got := unitCall(s, func(k int) bool { return T[k] == 1 }); got != "run" {
		t.Fatalf("unitCall = %q, want run", got)
	}
	b, e := "g1 region-begin run\n", "g1 region-end run\n"
	r, w := "g1 read x#1 @a.go:1:1\n", "g2 write x#1 @b.go:1:1\n"
	for _, tc := range []struct {
		name, events string
		want         bool
	}{
		{"inside one call", b + r + w + r + e, true},
		{"between two calls", b + r + e + w + b + r + e, false},
		{"outside any call", r + w + r, false},
	} {
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte("# pecanvet trace v1\n"+tc.events), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := interleavingIn(path, s, T, SV, AR); got != tc.want {
			t.Errorf("%s: interleavingIn = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestInterleavingInTruncated: a trace cut short says nothing of what
// the run did after the cut.
func TestInterleavingInTruncated(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Obj: "x#1", Site: "a.go:1:1", N: 1},
		{G: "g2", Op: trace.Write, Obj: "x#1", Site: "b.go:1:1", N: 1},
		{G: "g1", Op: trace.Read, Obj: "x#1", Site: "a.go:2:1", N: 1},
	}, Anomaly: []int{0, 1, 2}}
	tr := &trace.Trace{Tables: trace.Tables{Goroutines: []string{"g1"}, Objects: []string{"x#1"}, Sites: []string{"a.go:1:1", "a.go:2:1"}}}
	tr.Events = []trace.Event{{G: 0, Op: trace.Read, Obj: 0, Site: 0}, {G: 0, Op: trace.Read, Obj: 0, Site: 1}}
	for _, cut := range []string{"", "killed"} {
		tr.Truncated = cut
		path := filepath.Join(t.TempDir(), "replay.trace")
		var b bytes.Buffer
		if err := trace.WriteBinary(&b, tr); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := interleavingIn(path, s, []int{1, 2, 1}, []int{1, 1, 1}, []int{1, 2, 1}); got != (cut != "") {
			t.Errorf("truncated %q: interleavingIn = %v, want %v", cut, got, cut != "")
		}
	}
}

// TestDriverRepeatControl: a generated driver's finding whose report
// rests on its effect is replayed once more (wantsRepeat), one at a time
// after the other controls; the effect goes (driverRepeat) only when the
// repeat passes having run the schedule at least as far as the replay:
// a repeat that fails again keeps it (drvport's Opens), and so does one
// that left the schedule where the replay did (the free run after it is
// what failed) or earlier. A race with a locked access, which counts
// without an effect, a test's finding, a passing replay and a driver of
// a type not meant for concurrent use (never reported) get no repeat.
func TestDriverRepeatControl(t *testing.T) {
	av := &pattern.Pattern{Kind: "av", Name: "RRW-stale", T: []int{1, 2, 1}, AR: []int{1, 2, 1}}
	race := &pattern.Pattern{Kind: "race", Name: "RW", Adjacent: true, T: []int{1, 2}, AR: []int{1, 2}}
	st := func(g string, op trace.Op, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: "x", Site: site, N: 1}
	}
	plain := &trace.Schedule{Steps: []trace.Step{st("g1", trace.Read, "a"), st("g2", trace.Read, "b"), st("g1", trace.Write, "c")}, Anomaly: []int{0, 1, 2}}
	locked := &trace.Schedule{Steps: []trace.Step{st("g1", trace.Lock, "l"), st("g1", trace.Read, "a"), st("g2", trace.Write, "b")}, Anomaly: []int{1, 2}}
	const cons = "test fails: zz_pecanvet_driver_test.go:155: Addr and Open called together returned [127.0.0.1:9090] and [bind: address already in use]"
	failed := replay.Verdict{Verdict: replay.Reproduced, Consequence: cons}
	interrupted := replay.Verdict{Verdict: replay.Reproduced, Interrupted: true, Goroutine: "g1", Step: 3, Consequence: cons}
	drv := driver.Prefix + "_Socket_Addr_Open"
	for _, tc := range []struct {
		name   string
		test   string
		p      *pattern.Pattern
		s      *trace.Schedule
		v      replay.Verdict
		repeat *replay.Verdict // nil: no repeat wanted
		want   bool            // the effect withdrawn
		// unmeant: the driven type is not meant for concurrent use, so
		// the finding is not reported either way.
		unmeant bool
	}{
		{"repeat passes", drv, av, plain, failed, &replay.Verdict{Verdict: replay.Reproduced, Step: 3, Passed: true}, true, false},
		{"repeat fails again", drv, av, plain, failed, &failed, false, false},
		{"repeat fails otherwise", drv, av, plain, failed, &replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: other"}, false, false},
		{"repeat diverges and passes", drv, av, plain, failed, &replay.Verdict{Verdict: replay.Diverged, Goroutine: "g1", Step: 1, Passed: true}, false, false},
		{"repeat unended", drv, av, plain, failed, &replay.Verdict{Verdict: replay.Reproduced, Passed: true, Unended: true}, false, false},
		{"interrupted, repeat runs through and passes", drv, av, plain, interrupted, &replay.Verdict{Verdict: replay.Reproduced, Step: 3, Passed: true}, true, false},
		{"interrupted, repeat interrupted later and passes", drv, av, plain, replay.Verdict{Verdict: replay.Reproduced, Interrupted: true, Goroutine: "g1", Step: 2, Consequence: cons}, &replay.Verdict{Verdict: replay.Diverged, Interrupted: true, Goroutine: "g1", Step: 3, Passed: true}, true, false},
		{"interrupted, repeat interrupted alike and passes", drv, av, plain, interrupted, &replay.Verdict{Verdict: replay.Diverged, Interrupted: true, Goroutine: "g1", Step: 3, Passed: true}, false, false},
		{"unlocked race failing", drv, race, plain, failed, &replay.Verdict{Verdict: replay.Reproduced, Passed: true}, true, false},
		{"locked race", drv, race, locked, failed, nil, false, false},
		{"passing replay", drv, av, plain, replay.Verdict{Verdict: replay.Reproduced, Passed: true}, nil, false, false},
		{"a test's", "TestX", race, plain, failed, nil, false, false},
		{"a type not meant for concurrent use", drv, av, plain, failed, nil, false, true},
	} {
		var runs []string
		runControl = func(ctx context.Context, b *testbin.Build, pkg, test string, pr prediction, dir string, o replay.Options) replay.Verdict {
			runs = append(runs, filepath.Base(dir))
			if tc.repeat == nil {
				t.Errorf("%s: %s replayed again", tc.name, test)
				return replay.Verdict{}
			}
			return *tc.repeat
		}
		q := newReplayQueue(context.Background(), nil, "p", time.Time{}, Options{}, map[string]bool{})
		q.unmeant = func(string) bool { return tc.unmeant }
		g := &qGroup{test: tc.test, dir: t.TempDir()}
		it := &qItem{g: g, p: prediction{a: predict.Anomaly{Pattern: tc.p}}, s: tc.s, state: pDone, v: tc.v}
		q.items = []*qItem{it}
		q.controlItems(&Report{})
		if tc.repeat != nil && !slices.Equal(runs, []string{"r1-control-" + repeatName}) {
			t.Errorf("%s: control replays %q, want one repeat", tc.name, runs)
		}
		if got := it.control == driverRepeat; got != tc.want {
			t.Errorf("%s: control %q, want the effect withdrawn %v", tc.name, it.control, tc.want)
		}
	}
	runControl = replayRetrying
}

// TestControlledReleaseOnlyOrder: goburrow's TestExpireAfterWrite (triage
// policy.go:71 av). The remote goroutine is forked inside the unit, so
// the before order blocks short of it; the after order leaves the remote
// steps to the free run, where they race the test's next read, and
// passed in 2 of 3 runs. The release order fixes them right after the
// unit: failing with the schedule's very message, the unit whole, it is
// the only serial order failing the same way. Other values, a split
// unit, or a release order that diverged keep the effect, as does any
// case where the before order ran.
func TestControlledReleaseOnlyOrder(t *testing.T) {
	defer func(f func(string, *trace.Schedule, int) bool) { unheldApartOf = f }(unheldApartOf)
	unheldApartOf = func(string, *trace.Schedule, int) bool { return true }
	defer func() { straddlesOf = straddlesRun }()
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Site: "a"}, {G: "g2", Op: trace.Write, Site: "b"}, {G: "g1", Op: trace.Read, Site: "c"},
	}, Anomaly: []int{0, 1, 2}}
	T, AR := []int{1, 2, 1}, []int{1, 2, 1}
	cs := serialControls(s, T, AR)
	rel := &trace.Schedule{Pattern: s.Pattern, Steps: []trace.Step{s.Steps[0], s.Steps[2], s.Steps[1]}, Anomaly: []int{0, 1}}
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:12: got 2, want 1"}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	other := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: x_test.go:12: got 3, want 1"}
	blocked := replay.Verdict{Verdict: replay.Deadlock, Step: 1, Goroutine: "g2", Consequence: "test fails"}
	for _, tc := range []struct {
		name          string
		before, relV  replay.Verdict
		split, hasRel bool
		want          bool
		runs          string
	}{
		{"release fails the same", blocked, v, false, true, true, "before after after-release"},
		{"release passes", blocked, pass, false, true, false, "before after after-release repeat unheld"},
		{"release fails otherwise", blocked, other, false, true, false, "before after after-release repeat unheld"},
		{"release splits the unit", blocked, v, true, true, false, "before after after-release repeat unheld"},
		{"release diverges", blocked, replay.Verdict{Verdict: replay.Diverged, Goroutine: "g1", Step: 2, Consequence: v.Consequence}, false, true, false, "before after after-release repeat unheld"},
		{"no release order", blocked, v, false, false, false, "before after repeat unheld"},
		{"before ran and failed", v, v, false, true, false, "before after repeat unheld"},
	} {
		straddlesOf = func(string, *trace.Schedule, *trace.Schedule) bool { return tc.split }
		r := rel
		if !tc.hasRel {
			r = nil
		}
		var runs []string
		got := controlled(cs, r, -1, s, v, "", false, nil, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			runs = append(runs, name)
			switch name {
			case "before":
				return tc.before, true
			case "after":
				return pass, true
			case releaseName:
				return tc.relV, true
			}
			return v, true // repeat and unheld fail as the schedule did
		})
		if (got != "") != tc.want || strings.Join(runs, " ") != tc.runs {
			t.Errorf("%s: controlled = %q after %v, want a reason %v after %s", tc.name, got, runs, tc.want, tc.runs)
		}
	}
}

// TestAloneRepeatControl: pogreb's TestCompaction (compaction.go:138 av,
// triage.md) failed its segment counts in a replay because another of
// pecanvet's processes kept its DB at the same test.db in the package
// directory. A test's finding whose controls leave its effect standing
// is replayed once more, after the package's other replays, alone, when
// the package ran more than one process at a time; the effect goes
// (aloneRepeat) only when that repeat passes having run the schedule at
// least as far as the replay. A repeat that fails again, in any way, or
// stops short keeps it; a package that ran one process at a time, a
// finding its controls decided and a driver's finding get no such repeat.
func TestAloneRepeatControl(t *testing.T) {
	av := &pattern.Pattern{Kind: "av", Name: "RWR", T: []int{1, 2, 1}, AR: []int{1, 2, 1}}
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Obj: "x", Site: "a", N: 1}, {G: "g2", Op: trace.Write, Obj: "x", Site: "b", N: 1}, {G: "g1", Op: trace.Read, Obj: "x", Site: "c", N: 1},
	}, Anomaly: []int{0, 1, 2}}
	const cons = "test fails: compaction_test.go:84: expected 2; got 3"
	failed := replay.Verdict{Verdict: replay.Reproduced, Goroutine: "g1", Step: 3, Consequence: cons}
	// A control that proves nothing: stopped short of the unit.
	short := replay.Verdict{Verdict: replay.Diverged, Goroutine: "g1", Step: 1, Consequence: "test fails"}
	passes := replay.Verdict{Verdict: replay.Reproduced, Goroutine: "g1", Step: 3, Passed: true}
	for _, tc := range []struct {
		name    string
		test    string
		crowded bool
		control replay.Verdict // every control's but the alone repeat's
		alone   *replay.Verdict
		want    string // it.control
	}{
		{"crowded, alone passes", "TestCompaction", true, short, &passes, aloneRepeat},
		{"crowded, alone fails again", "TestCompaction", true, short, &failed, ""},
		{"crowded, alone fails otherwise", "TestCompaction", true, short, &replay.Verdict{Verdict: replay.Reproduced, Goroutine: "g1", Step: 3, Consequence: "test fails: other"}, ""},
		{"crowded, alone stops short and passes", "TestCompaction", true, short, &replay.Verdict{Verdict: replay.Diverged, Goroutine: "g1", Step: 1, Passed: true}, ""},
		{"crowded, alone unended", "TestCompaction", true, short, &replay.Verdict{Verdict: replay.Reproduced, Step: 3, Passed: true, Unended: true}, ""},
		{"one process at a time", "TestCompaction", false, short, nil, ""},
		// Both serial orders fail the same way: controlled, no repeat.
		{"controlled", "TestCompaction", true, failed, nil, "set"},
		{"a driver's", driver.Prefix + "_DB_Put_Compact", true, short, nil, ""},
	} {
		var alone int
		runControl = func(ctx context.Context, b *testbin.Build, pkg, test string, pr prediction, dir string, o replay.Options) replay.Verdict {
			if strings.HasSuffix(dir, "-control-"+aloneName) {
				alone++
				if tc.alone == nil {
					t.Errorf("%s: replayed alone", tc.name)
					return replay.Verdict{}
				}
				return *tc.alone
			}
			return tc.control
		}
		q := newReplayQueue(context.Background(), nil, "p", time.Time{}, Options{}, map[string]bool{})
		q.crowded = tc.crowded
		q.unmeant = func(string) bool { return true }
		g := &qGroup{test: tc.test, dir: t.TempDir()}
		it := &qItem{g: g, p: prediction{a: predict.Anomaly{Pattern: av}}, s: s, state: pDone, v: failed}
		q.items = []*qItem{it}
		q.controlItems(&Report{})
		if tc.alone != nil && alone != 1 {
			t.Errorf("%s: %d repeats alone, want 1", tc.name, alone)
		}
		switch {
		case tc.want == "set":
			if it.control == "" || it.control == aloneRepeat {
				t.Errorf("%s: control %q, want the serial controls'", tc.name, it.control)
			}
		case it.control != tc.want:
			t.Errorf("%s: control %q, want %q", tc.name, it.control, tc.want)
		}
	}
	runControl = replayRetrying
}

// TestControlRunWhole: the recorded order's control, whose free run
// recordedFails' interleavingIn looks through for the anomaly's sites,
// is recorded whole (replay.Options.WholeRun: dynamic/rt's free run
// otherwise leaves its atomics, unit markers and locks past a bound
// unrecorded); no other replay asks for it.
func TestControlRunWhole(t *testing.T) {
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		{G: "g1", Op: trace.Read, Obj: "x", Site: "a", N: 1}, {G: "g2", Op: trace.Write, Obj: "x", Site: "b", N: 1}, {G: "g1", Op: trace.Read, Obj: "x", Site: "c", N: 1},
	}, Anomaly: []int{0, 1, 2}}
	for _, name := range []string{"before", "after", releaseName, recordedName, unheldName, unheldName + "-again", repeatName, aloneName} {
		o := controlRun(name, replay.Options{}, s)
		if want := name == recordedName; o.WholeRun != want {
			t.Errorf("control %s: WholeRun %v, want %v", name, o.WholeRun, want)
		}
		if name == recordedName && !o.MarkEnd {
			t.Errorf("control %s: MarkEnd false", name)
		}
	}
}

// TestControlledAgain: the old startinboxfixed's TestSendThenRestart
// (session 54's CI): the schedule held the first process goroutine
// across the test's Stop and Start, and whether Start's goroutine began
// beside it ("two process goroutines ran at once") was the race of the
// free run after the schedule's end, which each serial order won in some
// runs and lost in others. A serial order that passed is run once more
// (againIfPassed): failing with the schedule's very message, it counts as
// failing so; passing again or failing otherwise, it passed. pecanfig1:
// an order that always passes keeps the effect.
func TestControlledAgain(t *testing.T) {
	defer func(f func(string, *trace.Schedule, int) bool) { unheldApartOf = f }(unheldApartOf)
	unheldApartOf = func(string, *trace.Schedule, int) bool { return false } // unheld proves nothing here
	s := &trace.Schedule{Pattern: "av/WRW", Steps: []trace.Step{
		{G: "g1", Op: trace.AtomicRMW, Site: "a"}, {G: "g2", Op: trace.AtomicLoad, Site: "b"}, {G: "g1", Op: trace.AtomicRMW, Site: "a"},
	}, Anomaly: []int{0, 1, 2}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: inbox_test.go:55: two process goroutines ran at once"}
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	other := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: inbox_test.go:51: handled 1, want 2"}
	stopped := replay.Verdict{Verdict: replay.Diverged, Step: 1, Goroutine: "g2", Passed: true}
	both := "both serial orders, the other goroutines' steps before the unit and after it, fail the same way"
	for _, tc := range []struct {
		name    string
		results map[string]replay.Verdict // by control; the schedule's failure when absent
		want    string
		runs    string
	}{
		{"before passes, then fails the same", map[string]replay.Verdict{"before": pass}, both, "before before-again after"},
		{"after passes, then fails the same", map[string]replay.Verdict{"after": pass}, both, "before after after-again"},
		{"both pass, then fail the same", map[string]replay.Verdict{"before": pass, "after": pass}, both, "before before-again after after-again"},
		// pecanfig1, registry: an order that passes again.
		{"before passes again", map[string]replay.Verdict{"before": pass, "before-again": pass}, "", "before before-again repeat unheld"},
		{"after passes again", map[string]replay.Verdict{"after": pass, "after-again": pass}, "", "before after after-again repeat unheld"},
		{"after passes, then fails otherwise", map[string]replay.Verdict{"after": pass, "after-again": other}, "", "before after after-again repeat unheld"},
		// An order that did not run its unit is not run again.
		{"before stops short", map[string]replay.Verdict{"before": stopped}, "", "before repeat unheld"},
		{"both fail the same", nil, both, "before after"},
	} {
		var runs []string
		got := controlled(cs, nil, -1, s, v, "", false, nil, againIfPassed(v, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			runs = append(runs, name)
			if r, ok := tc.results[name]; ok {
				return r, true
			}
			return v, true
		}))
		if got != tc.want || strings.Join(runs, " ") != tc.runs {
			t.Errorf("%s: controlled = %q after %v, want %q after %s", tc.name, got, runs, tc.want, tc.runs)
		}
	}
}
