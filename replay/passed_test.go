package replay

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
)

// TestPassedSkip: a replayed test that skipped did not fail (a driver's
// skip is no effect of the anomaly); one that failed or never ended did.
func TestPassedSkip(t *testing.T) {
	for result, want := range map[string]bool{"PASS": true, "SKIP": true, "FAIL": false, "": false} {
		if got := passed(result); got != want {
			t.Errorf("passed(%q) = %v, want %v", result, got, want)
		}
	}
}

// TestJudgeUnended: a replay killed at its time bound after the schedule
// ran, whose output holds no failure, panic or hang of the test's own, is
// unended, not a failing test; a failure line before the kill is the
// test's own verdict.
func TestJudgeUnended(t *testing.T) {
	dir := t.TempDir()
	vp := filepath.Join(dir, "verdict.json")
	if err := os.WriteFile(vp, []byte(`{"verdict":"reproduced"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{Timeout: 30 * time.Second}
	v := judge(vp, "", testbin.Run{TimedOut: true, Output: "=== RUN   TestPoolTuneScaleUp\n"}, 10, opt)
	if v.Verdict != Reproduced || !v.Unended || v.Consequence != "the test did not end within 30s" {
		t.Errorf("killed without output: %+v", v)
	}
	v = judge(vp, "", testbin.Run{TimedOut: true, Output: "=== RUN   TestX\n    x_test.go:9: got 1, want 2\n"}, 10, opt)
	if v.Unended || v.Consequence != "test fails: x_test.go:9: got 1, want 2" {
		t.Errorf("killed after a failure: %+v", v)
	}
	v = judge(vp, "", testbin.Run{Output: "=== RUN   TestX\n--- FAIL: TestX\n"}, 10, opt)
	if v.Unended || v.Consequence != "test fails" {
		t.Errorf("failed on its own: %+v", v)
	}
}

// TestJudgeFreeStop: a replay whose runtime ended it at the free run's
// bound (Verdict.FreeStop) is judged as one killed at the time bound, the
// bound's reason in place of the time: reproduced and unended with no
// failure of its own, the failure printed before the stop kept;
// explored (proved only by a failure) diverged.
func TestJudgeFreeStop(t *testing.T) {
	dir := t.TempDir()
	vp := filepath.Join(dir, "verdict.json")
	const why = "free run stopped after 90000 operations, past the bound of 85840 from the recording's length (PECANVET_FREE_BOUND)"
	write := func(verdict string) {
		if err := os.WriteFile(vp, []byte(`{"verdict":"`+verdict+`","free_stop":"`+why+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt := Options{Timeout: 30 * time.Second, FreeBound: 85840}
	write("reproduced")
	v := judge(vp, "", testbin.Run{Output: "=== RUN   TestX\n"}, 10, opt)
	if v.Verdict != Reproduced || !v.Unended || v.Passed || v.Consequence != "the test did not end ("+why+")" {
		t.Errorf("stopped without output: %+v", v)
	}
	v = judge(vp, "", testbin.Run{Output: "=== RUN   TestX\n    x_test.go:9: got 1, want 2\n"}, 10, opt)
	if v.Verdict != Reproduced || v.Unended || v.Consequence != "test fails: x_test.go:9: got 1, want 2" {
		t.Errorf("stopped after a failure: %+v", v)
	}
	write("explored")
	v = judge(vp, "", testbin.Run{Output: "=== RUN   TestX\n"}, 10, opt)
	if v.Verdict != Diverged || !v.Explored || !strings.Contains(v.Message, "the free run did not end ("+why+")") {
		t.Errorf("explored, stopped: %+v", v)
	}
}

// TestJudgeFailsPlain: when the test fails in a normal run too, a replay's
// failure with another message is the test's own (yamux's
// TestSendData_VeryLarge: a write timeout recorded, "session shutdown"
// replayed); a panic the recorded run lacked still counts, and without
// FailsPlain only the same message is the baseline's.
func TestJudgeFailsPlain(t *testing.T) {
	dir := t.TempDir()
	vp := filepath.Join(dir, "verdict.json")
	if err := os.WriteFile(vp, []byte(`{"verdict":"reproduced"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	failed := testbin.Run{Output: "=== RUN   TestX\n    x_test.go:1381: err: session shutdown\n--- FAIL: TestX\n"}
	panicked := testbin.Run{Output: "=== RUN   TestX\npanic: boom\n\ngoroutine 7 [running]:\n"}
	opt := Options{Timeout: 30 * time.Second, Baseline: "test fails: x_test.go:698: err: connection write timeout"}
	if v := judge(vp, "", failed, 10, opt); v.AsBaseline {
		t.Errorf("another failure of a test failing only instrumented is the anomaly's: %+v", v)
	}
	opt.FailsPlain = true
	if v := judge(vp, "", failed, 10, opt); !v.AsBaseline {
		t.Errorf("a failure of a test failing in a normal run is credited: %+v", v)
	}
	if v := judge(vp, "", panicked, 10, opt); v.AsBaseline || !v.Panicked {
		t.Errorf("a new panic is not credited: %+v", v)
	}
	if v := judge(vp, "", testbin.Run{Output: "=== RUN   TestX\n--- PASS: TestX\n", Passed: true}, 10, opt); v.AsBaseline {
		t.Errorf("a passing replay taken for the baseline: %+v", v)
	}
}

// TestJudgeExcused: a failing replay whose output holds Options.Excused
// (a generated driver failed only by the cleanup copied from a test: a
// leak check's goroutine snapshot, cmux) passed; without the option, or
// with a panic, or killed at its bound, it did not.
func TestJudgeExcused(t *testing.T) {
	dir := t.TempDir()
	vp := filepath.Join(dir, "verdict.json")
	if err := os.WriteFile(vp, []byte(`{"verdict":"reproduced"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	const mark = "the driver failed only in its cleanup"
	failed := testbin.Run{Output: "=== RUN   TestX\n    x_test.go:783: Leaked goroutine: goroutine 4 [select]\n    x_test.go:9: " + mark + "\n--- FAIL: TestX\n"}
	opt := Options{Timeout: 30 * time.Second}
	if v := judge(vp, "", failed, 10, opt); v.Passed || v.Consequence == "" {
		t.Errorf("without Excused, a failure is one: %+v", v)
	}
	opt.Excused = mark
	if v := judge(vp, "", failed, 10, opt); !v.Passed || v.Consequence != "" || v.Verdict != Reproduced {
		t.Errorf("an excused failure is credited: %+v", v)
	}
	panicked := failed
	panicked.Output += "panic: boom\n\ngoroutine 7 [running]:\n"
	if v := judge(vp, "", panicked, 10, opt); v.Passed || !v.Panicked {
		t.Errorf("a panic is excused: %+v", v)
	}
	killed := failed
	killed.TimedOut = true
	if v := judge(vp, "", killed, 10, opt); v.Passed {
		t.Errorf("a replay killed at its bound passed: %+v", v)
	}
}

// TestJudgeBubble: a replay that held goroutines of a testing/synctest
// bubble (Verdict.Bubble) proves no explored or interrupted anomaly by
// its failure or panic (pion/transport's TestDelayFilter: synctest's
// "deadlock: all goroutines in bubble are blocked" after an exploration
// that the bubble's fake clock, moved by the replay, set off); outside a
// bubble the same failure does. A reproduced verdict stays reproduced.
func TestJudgeBubble(t *testing.T) {
	panicked := testbin.Run{Output: "=== RUN   TestDelayFilter\npanic: deadlock: all goroutines in bubble are blocked\n\ngoroutine 7 [running]:\n"}
	opt := Options{Timeout: 30 * time.Second}
	for _, c := range []struct {
		verdict string
		bubble  bool
		want    string
	}{
		{"explored", false, Reproduced},
		{"explored", true, Diverged},
		{"interrupted", false, Reproduced},
		{"interrupted", true, Diverged},
		{"reproduced", true, Reproduced},
	} {
		vp := filepath.Join(t.TempDir(), "verdict.json")
		data := fmt.Sprintf(`{"verdict":%q,"step":46,"goroutine":"g1.1.1","expected":"x","bubble":%v}`, c.verdict, c.bubble)
		if err := os.WriteFile(vp, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		v := judge(vp, "", panicked, 68, opt)
		if v.Verdict != c.want || v.Bubble != c.bubble || !v.Panicked {
			t.Errorf("%s, bubble %v: %+v, want %s", c.verdict, c.bubble, v, c.want)
		}
		if c.bubble && c.want == Diverged && !strings.Contains(v.Message, BubbleNote) {
			t.Errorf("%s in a bubble: message %q does not say why", c.verdict, v.Message)
		}
	}
}
