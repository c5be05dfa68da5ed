package replay

import (
	"strings"
	"testing"
)

// testifyOut is go test -v's output of a test whose testify assertions
// (v1.10.0: assert.Equal, True, NoError, require.Len in a subtest) fail,
// as printed: each message on the lines after "x_test.go:15: ".
const testifyOut = `=== RUN   TestX
    x_test.go:15: 
        	Error Trace:	/home/u/exp/x_test.go:15
        	Error:      	Not equal: 
        	            	expected: []time.Duration{0, 100000000, 100000000}
        	            	actual  : []time.Duration{0, 0, 100000000}
        	            	
        	            	Diff:
        	            	--- Expected
        	            	+++ Actual
        	            	@@ -2,3 +2,3 @@
        	            	  (time.Duration) 0,
        	            	- (time.Duration) 100000000,
        	            	+ (time.Duration) 0,
        	            	  (time.Duration) 100000000
        	Test:       	TestX
        	Messages:   	bad timestamps for inital takes
    x_test.go:16: 
        	Error Trace:	/home/u/exp/x_test.go:16
        	Error:      	Not equal: 
        	            	expected: 30
        	            	actual  : 10
        	Test:       	TestX
    x_test.go:17: 
        	Error Trace:	/home/u/exp/x_test.go:17
        	Error:      	Not equal: 
        	            	expected: &exp.pt{X:1, Y:2}
        	            	actual  : &exp.pt{X:1, Y:3}
        	            	
        	            	Diff:
        	            	--- Expected
        	            	+++ Actual
        	            	@@ -2,3 +2,3 @@
        	            	  X: (int) 1,
        	            	- Y: (int) 2
        	            	+ Y: (int) 3
        	            	 })
        	Test:       	TestX
    x_test.go:18: 
        	Error Trace:	/home/u/exp/x_test.go:18
        	Error:      	Should be true
        	Test:       	TestX
        	Messages:   	flag 3
    x_test.go:19: 
        	Error Trace:	/home/u/exp/x_test.go:19
        	Error:      	Received unexpected error:
        	            	boom
        	Test:       	TestX
=== RUN   TestX/sub
    x_test.go:21: 
        	Error Trace:	/home/u/exp/x_test.go:21
        	Error:      	"[1]" should have 2 item(s), but has 1
        	Test:       	TestX/sub
--- FAIL: TestX (0.00s)
    --- FAIL: TestX/sub (0.00s)
FAIL
FAIL	exp	0.005s
FAIL
`

func TestConsequenceTestify(t *testing.T) {
	_, got := Consequence(testifyOut, false)
	want := "test fails: " + strings.Join([]string{
		"x_test.go:15: bad timestamps for inital takes: Not equal: expected: []time.Duration{0, 100000000, 100000000}, actual: []time.Duration{0, 0, 100000000}",
		"x_test.go:16: Not equal: expected: 30, actual: 10",
		"x_test.go:17: Not equal: expected: &exp.pt{X:1, Y:2}, actual: &exp.pt{X:1, Y:3}",
		"x_test.go:18: flag 3: Should be true",
		"x_test.go:19: Received unexpected error: boom",
	}, "; ")
	if got != want {
		t.Errorf("Consequence =\n%s\nwant\n%s", got, want)
	}
	// Other values at the same places are another failure.
	other := strings.Replace(testifyOut, "actual  : 10", "actual  : 20", 1)
	if _, o := Consequence(other, false); o == got || !strings.Contains(o, "actual: 20") {
		t.Errorf("Consequence with another value = %q, want it to differ", o)
	}
	// The subtest's failure, in non-chatty output (flushed after its end
	// line, indented deeper), once the first five are gone.
	flushed := "--- FAIL: TestX (0.00s)\n    --- FAIL: TestX/sub (0.00s)\n        x_test.go:21: \n" +
		"            \tError Trace:\t/home/u/exp/x_test.go:21\n" +
		"            \tError:      \t\"[1]\" should have 2 item(s), but has 1\n" +
		"            \tTest:       \tTestX/sub\nFAIL\n"
	if _, got := Consequence(flushed, false); got != `test fails: x_test.go:21: "[1]" should have 2 item(s), but has 1` {
		t.Errorf("Consequence(non-chatty) = %q", got)
	}
}

func TestFailMessage(t *testing.T) {
	for _, c := range []struct {
		first string
		more  []string
		want  string
	}{
		{"balance = 10, want 30", nil, "balance = 10, want 30"},
		// A message on several lines whose first says something: that line
		// (the rest is often a dump).
		{"got:", []string{"a", "b"}, "got:"},
		{"", []string{"got 1", "want 2"}, "got 1, want 2"},
		{"", []string{"got &T{", "A: 1,", "}"}, "got &T{ A: 1, }"},
		// A line after the fields that is not padded stays with the last
		// field.
		{"", []string{"\tError:      \tboom", "\tMessages:   \tctx", "more"}, "ctx, more: boom"},
		{"", []string{"\tError:      \t" + strings.Repeat("x", 500)}, strings.Repeat("x", maxFailMsg) + "…"},
	} {
		if got := failMessage(c.first, c.more); got != c.want {
			t.Errorf("failMessage(%q, %q) = %q, want %q", c.first, c.more, got, c.want)
		}
	}
}

// TestScheduled: with the schedule's end marked, the failures printed
// before the mark are the schedule's; a line before it of a test that
// then passed was a log line; no mark, nothing.
func TestScheduled(t *testing.T) {
	out := "=== RUN   TestInitial\n=== RUN   TestInitial/mutex\n    r_test.go:270: \n        \tError:      \tNot equal: \n        \t            \texpected: 1\n        \t            \tactual  : 2\n" +
		"=== RUN   TestInitial/atomic\n    r_test.go:50: starting\n" + scheduleEndMark + "\n=== NAME  TestInitial\n    r_test.go:270: \n        \tError:      \tNot equal: \n        \t            \texpected: 1\n        \t            \tactual  : 3\n" +
		"--- FAIL: TestInitial (0.01s)\n    --- FAIL: TestInitial/mutex (0.00s)\n    --- PASS: TestInitial/atomic (0.00s)\nFAIL\n"
	// (The atomic subtest's line at :50 is a log line: it passed. Its
	// failure at :270 after the mark is the parent's, as ratelimit's t is.)
	var o Options
	if got, want := o.scheduled(out), "test fails: r_test.go:270: Not equal: expected: 1, actual: 2"; got != want {
		t.Errorf("scheduled = %q, want %q", got, want)
	}
	if _, c := o.Consequence(out, false); !strings.Contains(c, "actual: 3") {
		t.Errorf("Consequence = %q, want the failure after the mark too", c)
	}
	if got := o.scheduled(strings.Replace(out, scheduleEndMark, "", 1)); got != "" {
		t.Errorf("scheduled without a mark = %q, want none", got)
	}
	if got := o.scheduled(scheduleEndMark + "\n" + strings.Replace(out, scheduleEndMark+"\n", "", 1)); got != "" {
		t.Errorf("scheduled with the mark first = %q, want none", got)
	}
}
