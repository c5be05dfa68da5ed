package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
)

// chatty is go test -v's output of a test whose parallel subtests skip,
// pass and fail, the parent logging a random port first.
func chatty(port string) string {
	return `=== RUN   TestX
    x_test.go:9: Connecting to tcp: [::]:` + port + `
=== RUN   TestX/skip
=== PAUSE TestX/skip
=== RUN   TestX/pass
=== PAUSE TestX/pass
=== RUN   TestX/fail
=== PAUSE TestX/fail
=== CONT  TestX/skip
    x_test.go:12: a write shared the bucket of an invalidated key
=== CONT  TestX/fail
=== CONT  TestX/pass
    x_test.go:16: fine 1
=== NAME  TestX/fail
    x_test.go:21: running = -1
--- FAIL: TestX (0.00s)
    --- SKIP: TestX/skip (0.00s)
    --- PASS: TestX/pass (0.00s)
    --- FAIL: TestX/fail (0.01s)
FAIL
`
}

func TestConsequenceSkipsAndLogs(t *testing.T) {
	// A skip's reason and a passing subtest's log are no failure (otter's
	// t.Skip line was reported as the test failing).
	_, got := Consequence(chatty("40137"), false)
	if want := "test fails: x_test.go:9: Connecting to tcp: [::]:40137; x_test.go:21: running = -1"; got != want {
		t.Errorf("Consequence = %q, want %q", got, want)
	}
	// A test killed at its bound after a subtest skipped: nothing failed
	// that the output shows.
	killed := "=== RUN   TestY\n=== RUN   TestY/sub\n    y_test.go:5: waited too long\n    --- SKIP: TestY/sub (0.30s)\n=== RUN   TestY/next\n"
	if _, got := Consequence(killed, false); got != "test fails" {
		t.Errorf("Consequence(killed after a skip) = %q, want a bare %q", got, "test fails")
	}
	// The recorded run printed the parent's log line too, with another
	// port: left out, so two replays that fail alike compare equal.
	recorded := "=== RUN   TestX\n    x_test.go:9: Connecting to tcp: [::]:51234\n=== RUN   TestX/fail\n--- PASS: TestX (0.01s)\n    --- PASS: TestX/fail (0.01s)\nPASS\n"
	o := Options{Logged: LogLines(recorded, true)}
	a, b := chatty("40137"), chatty("33012")
	_, ca := o.Consequence(a, false)
	_, cb := o.Consequence(b, false)
	if want := "test fails: x_test.go:21: running = -1"; ca != want || cb != want {
		t.Errorf("Consequence with the recording's log lines = %q, %q, want %q", ca, cb, want)
	}
	// A failure at a logged place with another text still counts, and
	// numbers stay in the failures.
	o = Options{Logged: LogLines(chatty("1"), true)}
	_, c := o.Consequence(strings.Replace(a, "Connecting to tcp", "dial failed", 1), false)
	if want := "test fails: x_test.go:9: dial failed: [::]:40137"; c != want {
		t.Errorf("Consequence = %q, want %q", c, want)
	}
}

func TestLogLines(t *testing.T) {
	// Of a failed recording, only the lines of tests that passed or
	// skipped are log lines: the failing subtest's may be assertions,
	// and so may the parent's (it failed).
	got := strings.Join(LogLines(chatty("7"), false), " | ")
	if want := "x_test.go:12: a write shared the bucket of an invalidated key | x_test.go:16: fine #"; got != want {
		t.Errorf("LogLines(failed) = %q, want %q", got, want)
	}
	if got := len(LogLines(chatty("7"), true)); got != 4 {
		t.Errorf("LogLines(passed) has %d lines, want 4", got)
	}
}

// TestJudgeSkipThenKilled: otter's TestCache_Maintenance, ended before
// its parent test printed the InvalidateAll subtest's "--- SKIP", had the
// skip's reason taken for the failure ("test fails: cache_impl_test.go:1866:
// a write shared the bucket of an invalidated key"), an effect. The
// source says the line is a t.Skip's: nothing failed that the output
// shows, and a kill is no effect.
func TestJudgeSkipThenKilled(t *testing.T) {
	src := t.TempDir()
	test := "package p\n\nfunc TestCache(t *testing.T) {\n\tif blocked.Load() {\n\t\tt.Skip(\"a write shared the bucket of an invalidated key\")\n\t}\n\tt.Errorf(\"size %d\", n)\n\tt.Errorf(\"rest %v\", it.Skip(2))\n}\n"
	if err := os.WriteFile(filepath.Join(src, "cache_impl_test.go"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	out := "=== RUN   TestCache_Maintenance\n=== RUN   TestCache_Maintenance/InvalidateAll\n=== PAUSE TestCache_Maintenance/InvalidateAll\n" +
		"=== CONT  TestCache_Maintenance/InvalidateAll\n    cache_impl_test.go:5: a write shared the bucket of an invalidated key\n" +
		"=== NAME  TestCache_Maintenance/warm-up\n"
	opt := Options{Timeout: DefaultTimeout, Src: src}
	v := judge(filepath.Join(src, "none.json"), "", testbin.Run{TimedOut: true, Output: out}, 3, opt)
	if !v.Unended || strings.Contains(v.Consequence, "bucket") {
		t.Errorf("judge = %q (unended %v), want unended, no failure at the skip", v.Consequence, v.Unended)
	}
	// An assertion's line still fails the test.
	out += "    cache_impl_test.go:7: size 3\n"
	v = judge(filepath.Join(src, "none.json"), "", testbin.Run{TimedOut: true, Output: out}, 3, opt)
	if v.Unended || v.Consequence != "test fails: cache_impl_test.go:7: size 3" {
		t.Errorf("judge = %q (unended %v), want the failure at line 7", v.Consequence, v.Unended)
	}
	// A line that fails the test is a failure, whatever else it calls.
	out += "    cache_impl_test.go:8: rest []\n"
	v = judge(filepath.Join(src, "none.json"), "", testbin.Run{TimedOut: true, Output: out}, 3, opt)
	if v.Consequence != "test fails: cache_impl_test.go:7: size 3; cache_impl_test.go:8: rest []" {
		t.Errorf("judge = %q (unended %v), want the failure at line 7", v.Consequence, v.Unended)
	}
}
