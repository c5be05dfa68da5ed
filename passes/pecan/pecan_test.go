package pecan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pecanvet/pecanvet/passes/pecan"
)

// TestSubjects runs the analyzer, dynamic loop included, on the buggy
// evaluation subjects: each gets exactly its // want diagnostics (the
// anomalies pecanvet reproduces).
func TestSubjects(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays the subjects' tests")
	}
	dir, err := filepath.Abs("../../testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	all, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var pats []string
	for _, p := range all {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && !strings.HasSuffix(p, "fixed") {
			pats = append(pats, "./"+filepath.Base(p))
		}
	}
	if len(pats) < 30 {
		t.Fatalf("only %d buggy subjects", len(pats))
	}
	// A subject whose tests time their goroutines with sleeps can record
	// another order on a loaded machine and have nothing to predict
	// (notifyhint's 5 ms sleeps failed CI once in three runs, and passed
	// 20 of 20 checks alone): its subjects run again, up to twice, and
	// the test fails only on what every run got wrong, with the last
	// run's errors. The subjects retried are logged: a flake is a finding
	// about the subject. Each run is a new check: the analyzer checks a
	// directory once per process, and without pecan.Forget both reruns
	// returned the first run's report (stopflag's server.go:25 was "lost"
	// so three times in sessions 32-34's CI).
	failed, msgs := runSubjects(t, dir, pats)
	for try := 0; try < 2 && len(failed) > 0; try++ {
		t.Logf("running again, alone: %s", strings.Join(failed, " "))
		for _, p := range failed {
			pecan.Forget(filepath.Join(dir, strings.TrimPrefix(p, "./")))
		}
		failed, msgs = runSubjects(nil, dir, failed)
	}
	for _, msg := range msgs {
		t.Error(msg)
	}
}

// errs is an analysistest.Testing that keeps the errors.
type errs []string

func (e *errs) Errorf(format string, args ...any) { *e = append(*e, fmt.Sprintf(format, args...)) }

// runSubjects runs the analyzer on the subjects pats of dir and returns
// those with an error, and the errors that name them; t, when not nil,
// logs the errors of this run (and fails on one that names no subject).
func runSubjects(t *testing.T, dir string, pats []string) (failed, msgs []string) {
	var e errs
	analysistest.Run(&e, dir, pecan.Analyzer, pats...)
	for _, p := range pats {
		name := strings.TrimPrefix(p, "./")
		in := false
		for _, msg := range e {
			if strings.Contains(msg, string(filepath.Separator)+name+string(filepath.Separator)) {
				in = true
				msgs = append(msgs, msg)
			}
		}
		if in {
			failed = append(failed, p)
		}
	}
	if t != nil {
		for _, msg := range e {
			t.Logf("first run: %s", msg)
		}
	}
	if len(failed) == 0 && len(e) > 0 {
		// An error no subject's path names: it is no timing's.
		for _, msg := range e {
			if t != nil {
				t.Error(msg)
			}
		}
	}
	return failed, msgs
}

// TestGeneratedDriver: a package without tests gets its bug found through
// a generated driver.
func TestGeneratedDriver(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, pecan.Analyzer, "./notests")
}

// TestFixedTwins: no fixed twin of any subject gets a diagnostic (none has
// a // want line, so analysistest fails on any report).
func TestFixedTwins(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays the subjects' tests")
	}
	dir, err := filepath.Abs("../../testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := filepath.Glob(filepath.Join(dir, "*fixed"))
	if err != nil || len(fixed) < 30 {
		t.Fatalf("%d fixed twins found (%v)", len(fixed), err)
	}
	var pats []string
	for _, f := range fixed {
		pats = append(pats, "./"+filepath.Base(f))
	}
	analysistest.Run(t, dir, pecan.Analyzer, pats...)
}

// TestWithoutEffect: with -pecan.v, the interleavings without effect of a
// unit that splits itself by its own unlock (flightfixed, which reports
// nothing by default: TestFixedTwins) are reported, marked as such.
func TestWithoutEffect(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	if err := pecan.Analyzer.Flags.Set("v", "true"); err != nil {
		t.Fatal(err)
	}
	defer pecan.Analyzer.Flags.Set("v", "false")
	analysistest.Run(t, dir, pecan.Analyzer, "./splitunit")
}

// TestDriverNilDependency: a generated driver that cannot build a usable
// receiver (its sequential calls panic on a nil dependency) skips; the
// panic is not reported as a concurrency bug.
func TestDriverNilDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, pecan.Analyzer, "./nildep")
}

// TestDriverBlockingCall: a generated driver whose calls do not return
// (Run serves until Stop) skips after its bound, instead of holding the
// recording until the per-test timeout (2 minutes).
func TestDriverBlockingCall(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	analysistest.Run(t, dir, pecan.Analyzer, "./blockingrun")
	if d := time.Since(start); d > 100*time.Second {
		t.Errorf("took %v: the driver waited for the recording's timeout", d)
	}
}
