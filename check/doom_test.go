package check

import (
	"os"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
)

// sched is a schedule of steps "g1 g2 g1 …", one per goroutine name.
func sched(gs string) *trace.Schedule {
	s := &trace.Schedule{}
	for _, g := range strings.Fields(gs) {
		s.Steps = append(s.Steps, trace.Step{G: g, Op: trace.Read})
	}
	return s
}

// pred is a prediction of sched(gs), in memory or, every other call, in a
// file as check writes them.
var predCalls int

func pred(t *testing.T, gs string) prediction {
	s := sched(gs)
	s.Pattern = "race/WW"
	if predCalls++; predCalls%2 == 0 {
		return prediction{s: s}
	}
	var b strings.Builder
	s.WriteTo(&b)
	f, err := os.CreateTemp(t.TempDir(), "*.schedule")
	if err != nil {
		panic(err)
	}
	f.WriteString(b.String())
	f.Close()
	return prediction{file: f.Name(), steps: len(s.Steps)}
}

func TestDoom(t *testing.T) {
	// A replay stuck at step 4 (h's first step, h not started) after g1
	// g1 g2 ran.
	d, ok := newDoom(0, pred(t, "g1 g1 g2 h g1"), replay.Verdict{Verdict: replay.Deadlock, Outside: true, Unstarted: true, Step: 4})
	if !ok || d.g != "h" || d.n != 0 || d.done["g1"] != 2 || d.done["g2"] != 1 {
		t.Fatalf("doom %+v, %v", d, ok)
	}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"h g1", true},                 // fewer steps run before h
		{"g1 g2 h", true},              // a subset
		{"g1 g1 g2 h", true},           // the same
		{"g1 g1 g1 h", false},          // a third step of g1 might start it
		{"g1 g1 g2 g3 h", false},       // g3 ran none before
		{"g1 g1 g2", false},            // h never comes
		{"g2 g1 g1 h g2", true},        // order does not matter, counts do
		{"g1 g1 g2 g2 h g1 g1", false}, // more of g2
	} {
		if got := d.dooms(pred(t, c.s)); got != c.want {
			t.Errorf("dooms(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	// A later step of h: stuck at h's second step.
	d, ok = newDoom(0, pred(t, "h g1 h"), replay.Verdict{Verdict: replay.Deadlock, Outside: true, Unstarted: true, Step: 3})
	if !ok || d.n != 1 {
		t.Fatalf("doom %+v", d)
	}
	if !d.dooms(pred(t, "h h g1")) || d.dooms(pred(t, "h g1 g1 h")) {
		t.Error("second-step doom misjudged")
	}
	// h had started and blocked outside recorded operations (a timer, a
	// connection): only the same steps in the same order lead there.
	d, ok = newDoom(0, pred(t, "g1 g1 g2 h g1"), replay.Verdict{Verdict: replay.Deadlock, Outside: true, Step: 4})
	if !ok || !d.strict {
		t.Fatalf("doom %+v, %v", d, ok)
	}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"g1 g1 g2 h", true},       // the same
		{"g1 g1 g2 h g2 g1", true}, // the same up to h's step
		{"g2 g1 g1 h g2", false},   // another order may wake h
		{"g1 g2 h", false},         // fewer steps
		{"h g1", false},
		{"g1 g1 g2 g1 h", false},
	} {
		if got := d.dooms(pred(t, c.s)); got != c.want {
			t.Errorf("strict: dooms(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	// Only deadlocks outside recorded operations teach anything: one in
	// recorded operations (a lock another step holds) may clear with fewer
	// steps run.
	for _, v := range []replay.Verdict{
		{Verdict: replay.Deadlock, Step: 4},
		{Verdict: replay.Diverged, Outside: true, Step: 4},
		{Verdict: replay.Deadlock, Outside: true, Step: 9},
	} {
		if _, ok := newDoom(0, pred(t, "g1 g1 g2 h g1"), v); ok {
			t.Errorf("doom from %+v", v)
		}
	}
}

// TestDoomRoots: a replay stuck because root g3 had not started (g1 and
// g2 had) dooms, with no more steps run, the schedules that need the
// first step of any root that had not started either (conc's pool
// workers, each moved before their pool's creation in a schedule of its
// own), but not of a root that had started, nor a forked goroutine, nor
// with an anomaly step before, nor when the stuck goroutine had started.
func TestDoomRoots(t *testing.T) {
	withAnomaly := func(gs string, at ...int) prediction {
		s := sched(gs)
		s.Pattern, s.Anomaly = "race/WW", at
		for i := range s.Steps {
			s.Steps[i].Obj = "o#1"
		}
		return predOf(t, s, len(at) == 2)
	}
	v := replay.Verdict{Verdict: replay.Deadlock, Outside: true, Unstarted: true, Roots: []string{"g1", "g2"}, Step: 4}
	d, ok := newDoom(0, withAnomaly("g1 g1 g2 g3 g1", 3, 4), v)
	if !ok || d.started == nil {
		t.Fatalf("doom %+v, %v", d, ok)
	}
	for _, c := range []struct {
		s    string
		at   []int
		want bool
	}{
		{"g1 g3", []int{1}, true},             // the stuck root itself
		{"g1 g4", []int{1}, true},             // another root that had not started
		{"g1 g2 g1 g7 g7", []int{3, 4}, true}, // the same number of steps run
		{"g1 g1 g1 g4", []int{3}, false},      // more steps of g1: it may start g4
		{"g1 g2 g2 g4", []int{3}, false},      // more of g2
		{"g1 g2", []int{1}, false},            // g2 had started: it waits at its gate
		{"g1 g1.3", []int{1}, false},          // a forked goroutine
		{"g1 g4", []int{0, 1}, false},         // an anomaly step before g4's
	} {
		if got := d.dooms(withAnomaly(c.s, c.at...)); got != c.want {
			t.Errorf("dooms(%q, anomaly %v) = %v, want %v", c.s, c.at, got, c.want)
		}
	}
	// With an anomaly step before the stuck one, only the stuck
	// goroutine's step is doomed.
	d, ok = newDoom(0, withAnomaly("g1 g1 g2 g3 g1", 1, 4), v)
	if !ok || d.dooms(withAnomaly("g1 g4", 1)) || !d.dooms(withAnomaly("g1 g3", 1)) {
		t.Errorf("doom with an anomaly step before: %+v", d)
	}
	// Without Unstarted (the stuck goroutine had started, and blocked
	// outside recorded operations), only its step after the same prefix.
	d, ok = newDoom(0, withAnomaly("g1 g1 g2 g3 g1", 3, 4), replay.Verdict{Verdict: replay.Deadlock, Outside: true, Step: 4})
	if !ok || d.dooms(withAnomaly("g1 g4", 1)) || d.dooms(withAnomaly("g1 g3", 1)) || !d.dooms(withAnomaly("g1 g1 g2 g3", 3)) {
		t.Errorf("strict doom: %+v", d)
	}
}
