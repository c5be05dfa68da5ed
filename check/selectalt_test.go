package check

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestSelectCaseLines checks which select cases count as having an
// escape branch: a timeout that returns does; one that fails the test,
// or one after which a loop comes back to the select, does not.
func TestSelectCaseLines(t *testing.T) {
	src := `package p

import (
	"testing"
	"time"
)

func fetch(ch chan int, d time.Duration) int {
	select {
	case v := <-ch: // 10: the timeout returns: a leak's select
		return v
	case <-time.After(d):
		return 0
	}
}

func TestWait(t *testing.T) {
	ch := make(chan bool)
	select {
	case <-ch: // 20: the timeout fails the test
	case <-time.After(time.Second):
		t.Fatal("timed out")
	}
	select {
	case <-ch: // 25: so does a panic
	case <-time.After(time.Second):
		panic("timed out")
	}
}

func helper(tb testing.TB, ch chan bool) {
	select {
	case <-ch: // 33: tb.Errorf on a testing.TB
	case <-time.After(time.Second):
		tb.Errorf("timed out")
	}
}

func run(stop chan struct{}, t *time.Timer) {
	for {
		for {
			select {
			case <-t.C: // 43: a timer case whose other branch is no escape
			case <-stop: // 44: the timer branch loops back
				return
			}
			break
		}
	}
}

func runUntil(stop chan struct{}, t *time.Timer, done bool) {
	for !done {
		select {
		case <-t.C:
			done = true
		case <-stop: // 57: a loop with a condition may end
			return
		}
	}
}

func runOut(stop chan struct{}, t *time.Timer, n int) {
	for {
		select {
		case <-t.C:
		case <-stop: // 67: the loop's body has a way out
		}
		if n > 3 {
			return
		}
	}
}

func runBreak(stop chan struct{}, t *time.Timer) {
	for {
		select {
		case <-t.C:
			break // ends the select, not the loop
		case <-stop: // 80: loops back
			return
		}
	}
}

func runLabel(stop chan struct{}, t *time.Timer) {
loop:
	for {
		select {
		case <-t.C:
			break loop
		case <-stop: // 92: the timer branch leaves the loop
			return
		}
	}
}

func logs(ch chan int, log interface{ Error(string) }) {
	select {
	case <-ch: // 100: Error on a logger is no test failure
	case <-time.After(time.Second):
		log.Error("timed out")
	}
}
`
	dir := t.TempDir()
	path := filepath.Join(dir, "p_test.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []int
	for l := range parseSelects(path).alt {
		got = append(got, l)
	}
	sort.Ints(got)
	// Each case line that has an escape; the timer cases themselves (43
	// and the like) have none: their other branch receives from a
	// channel of the program.
	want := []int{10, 57, 67, 92, 100}
	if !slices.Equal(got, want) {
		lines := strings.Split(src, "\n")
		for _, l := range got {
			t.Logf("%d: %s", l, strings.TrimSpace(lines[l-1]))
		}
		t.Errorf("select case lines with an escape = %v, want %v", got, want)
	}
}

// TestTestTimedOut checks that a leak's replay whose test failed in one
// of its selects' escape branches loses its proof, and only that one.
func TestTestTimedOut(t *testing.T) {
	src := `package p

import (
	"testing"
	"time"
)

func TestStop(t *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	select {
	case <-done:
	case <-time.After(time.Second):
		fail(t, "Stop did not return") // 14: a helper the parse cannot see fail
	}
	t.Error("after") // 16
}

func fail(t *testing.T, msg string) { t.Fatal(msg) }
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	q := &replayQueue{alts: selectAlts{dir: dir}}
	leak := prediction{a: predict.Anomaly{Pattern: &pattern.Pattern{Leak: true}}}
	proved := replay.Verdict{Verdict: replay.Reproduced, Passed: true, Leaked: []string{"g1.1.1 in chan send ch#1 @x.go:3"}}
	for _, tc := range []struct {
		name string
		p    prediction
		v    replay.Verdict
		want string
	}{
		{"timed out", leak, failed(proved, "test fails: p_test.go:14: Stop did not return"), replay.Diverged},
		{"failed after", leak, failed(proved, "test fails: p_test.go:16: after"), replay.Reproduced},
		{"passed", leak, proved, replay.Reproduced},
		{"not a leak", prediction{a: predict.Anomaly{Pattern: &pattern.Pattern{}}}, failed(proved, "test fails: p_test.go:14: x"), replay.Reproduced},
	} {
		got := q.timedOutLeak(tc.p, tc.v)
		if got.Verdict != tc.want {
			t.Errorf("%s: verdict %s, want %s (%s)", tc.name, got.Verdict, tc.want, got.Message)
		}
		if tc.want == replay.Diverged && (len(got.Leaked) != 0 || !strings.Contains(got.Message, "p_test.go:14")) {
			t.Errorf("%s: Leaked %v, message %q", tc.name, got.Leaked, got.Message)
		}
	}
}

func failed(v replay.Verdict, consequence string) replay.Verdict {
	v.Passed, v.Consequence = false, consequence
	return v
}

const selectSrc = `package p

import "time"

func loop(stop, done chan struct{}, res chan int, t *time.Timer) {
	for {
		select {
		case <-stop:
			return
		case v := <-res:
			_ = v
		}
		select {
		case res <- 1:
		case <-t.C:
		}
		select {
		case res <- 2:
		case <-time.After(time.Second):
		case <-done:
		}
	}
}
`

func TestSelectStopCases(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(selectSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &selectAlts{dir: dir}
	for _, tc := range []struct {
		sel, stop string
		want      bool
	}{
		{"p.go:10:13", "", true},         // <-res beside <-stop
		{"p.go:10:13", "p.go:8:8", true}, // … at stop's line
		{"p.go:10:13", "p.go:14:8", false},
		{"p.go:8:8", "", false},          // <-stop beside <-res, whose branch loops back to the select
		{"p.go:14:8", "", false},         // beside a timer's C only
		{"p.go:18:8", "p.go:20:8", true}, // beside <-done
		{"p.go:18:8", "p.go:19:8", false},
		{"p.go:18:8", "q.go:20:8", false}, // another file
		{"p.go:5:1", "", false},           // no select case
	} {
		if got := s.stopCase(tc.sel, tc.stop); got != tc.want {
			t.Errorf("stopCase(%s, %q) = %v, want %v", tc.sel, tc.stop, got, tc.want)
		}
	}
	// The escape branches are as before: a timer's C, a call's result.
	for site, want := range map[string]bool{"p.go:10:13": false, "p.go:14:8": true, "p.go:18:8": true} {
		if got := s.at(site); got != want {
			t.Errorf("at(%s) = %v, want %v", site, got, want)
		}
	}
}

// moby#33781's shape: the loop's outer select took the stop in the
// recorded run (line 9); the inner select's stop case (line 16) receives
// from the same channel, and so stands for that receive. Another
// function's stop, another channel, or a receive that is not the stop
// case's channel does not.
const stopElsewhereSrc = `package p

import "time"

func monitor(stop, other chan struct{}, probe func() bool) {
	for {
		select {
		case <-other:
		case <-stop:
			return
		case <-time.After(time.Millisecond):
			results := make(chan bool)
			go func() { results <- probe() }()
			<-other
			select {
			case <-stop:
				return
			case <-results:
			}
		}
	}
}

func wait(stop chan struct{}) { <-stop }
`

func TestSelectStopSameChannel(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(stopElsewhereSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &selectAlts{dir: dir}
	for _, tc := range []struct {
		stop string
		want bool
	}{
		{"p.go:16:10", true},  // the stop case itself
		{"p.go:9:9", true},    // the outer select's receive from stop
		{"p.go:8:9", false},   // from other, which no stop case of the select names
		{"p.go:14:6", false},  // a plain receive from other
		{"p.go:24:35", false}, // another function's stop
	} {
		if got := s.stopCase("p.go:18:10", tc.stop); got != tc.want {
			t.Errorf("stopCase(p.go:18:10, %q) = %v, want %v", tc.stop, got, tc.want)
		}
	}
}

// TestSelectLoopAlt: moby#28462's monitor loop. Its timer branch comes
// back to the select, so the stop case has no escape branch (at) but
// one that loops back (atLoop); a timeout that returns is at's only.
func TestSelectLoopAlt(t *testing.T) {
	src := `package p

import "time"

func monitor(stop chan struct{}, probe func()) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Millisecond):
			probe()
		}
	}
}

func once(stop chan struct{}) {
	select {
	case <-stop:
	case <-time.After(time.Millisecond):
	}
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &selectAlts{dir: dir}
	for site, want := range map[string][2]bool{"p.go:8:10": {false, true}, "p.go:18:9": {true, false}, "p.go:11:4": {false, false}} {
		if at, loop := s.at(site), s.atLoop(site); at != want[0] || loop != want[1] {
			t.Errorf("%s: at %v, atLoop %v, want %v", site, at, loop, want)
		}
	}
}

// TestHeldLeak: a reproduced leak whose partner nothing but the hold
// delayed (Unpaced) is not proved when the clock fired at the select's
// or the partner's step; it stands when the clock did not fire there,
// and when the partner could be late of its own.
func TestHeldLeak(t *testing.T) {
	anomaly := []trace.Step{{G: "g1"}, {G: "g1.1"}}
	unpaced := prediction{a: predict.Anomaly{Pattern: &pattern.Pattern{Leak: true}, Unpaced: true}, steps: 10, anomaly: anomaly}
	paced := unpaced
	paced.a.Unpaced = false
	proved := replay.Verdict{Verdict: replay.Reproduced, Passed: true, Leaked: []string{"g1.1 in chan send out#1 @decorator.go:54"}}
	firedAt := func(v replay.Verdict, c ...int) replay.Verdict { v.Fired = c; return v }
	for _, tc := range []struct {
		name string
		p    prediction
		v    replay.Verdict
		want string
	}{
		{"held over the timer", unpaced, firedAt(proved, 8), replay.Diverged},
		{"fired at the partner's turn", unpaced, firedAt(proved, 9), replay.Diverged},
		{"fired before", unpaced, firedAt(proved, 3), replay.Reproduced},
		{"no timer", unpaced, proved, replay.Reproduced},
		{"paced partner", paced, firedAt(proved, 8), replay.Reproduced},
	} {
		got := heldLeak(tc.p, tc.v)
		if got.Verdict != tc.want {
			t.Errorf("%s: verdict %s, want %s (%s)", tc.name, got.Verdict, tc.want, got.Message)
		}
		if tc.want == replay.Diverged && len(got.Leaked) != 0 {
			t.Errorf("%s: Leaked %v", tc.name, got.Leaked)
		}
	}
}
