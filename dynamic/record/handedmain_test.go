package record_test

import (
	"context"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestHandedMain: a TestMain that hands m to another module, which runs
// the tests and calls os.Exit itself (go.uber.org/goleak's
// VerifyTestMain), leaves no deferred rt.Finish to end a trace. A test
// recorded alone must still get a complete trace, its goroutine blocked at
// the end noted (an observed leak needs both); before rt.EndWithTest the
// trace ended "without end marker" and nothing was noted.
func TestHandedMain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.24\n\nrequire example.com/exiter v0.0.0\n\nreplace example.com/exiter => ./exiter\n",
		"exiter/go.mod": "module example.com/exiter\n\ngo 1.24\n",
		"exiter/exiter.go": `// Package exiter runs the tests and exits, as goleak.VerifyTestMain does.
package exiter

import (
	"os"
	"testing"
)

func Main(m *testing.M) { os.Exit(m.Run()) }
`,
		"leak.go": `package m

// Fetch returns the first of two results: the other sender is stranded.
func Fetch() int {
	ch := make(chan int)
	for i := 0; i < 2; i++ {
		go func(i int) { ch <- i }(i)
	}
	return <-ch
}
`,
		"leak_test.go": `package m

import (
	"testing"
	"time"

	"example.com/exiter"
)

func TestMain(m *testing.M) { exiter.Main(m) }

func TestFetch(t *testing.T) {
	Fetch()
	time.Sleep(20 * time.Millisecond) // the loser reaches its send
}
`,
	})
	out := t.TempDir()
	tests, _, err := record.Record(context.Background(), record.Options{
		Dir: dir, Patterns: []string{"."}, OutDir: out, Timeout: time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 1 || tests[0].Name != "TestFetch" {
		t.Fatalf("recorded %+v, want TestFetch", tests)
	}
	r := tests[0]
	if !r.Passed || r.Truncated != "" {
		t.Fatalf("TestFetch: passed %v, truncated %q; want a complete trace of a passing test\n%s", r.Passed, r.Truncated, r.Output)
	}
	tr, err := trace.ReadFile(r.Trace, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Blocked) != 1 {
		t.Errorf("%d goroutines noted blocked at the test's end, want the stranded sender", len(tr.Blocked))
	}
}
