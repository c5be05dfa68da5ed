package testbin

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// testArgs are the test binary's flags that run test (a test, example,
// fuzz target or benchmark).
func testArgs(test string) []string {
	sel := "^" + regexp.QuoteMeta(test) + "$"
	if strings.HasPrefix(test, "Benchmark") {
		// A few iterations, not one: b.RunParallel's goroutines share
		// b.N, and at 1x only one of them runs the body.
		return []string{"-test.run", "^$", "-test.bench", sel, "-test.benchtime", "4x"}
	}
	return []string{"-test.run", sel}
}

// Run is one execution of a test binary.
type Run struct {
	Wall     time.Duration
	Passed   bool
	TimedOut bool
	Output   string
}

// RunTest runs one test of bin in dir with extra environment, killing its
// process group after timeout.
func RunTest(ctx context.Context, bin, dir, test string, env []string, timeout time.Duration) Run {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// -test.timeout slightly above ours makes the test binary itself dump
	// goroutines if our kill somehow does not land.
	cmd := exec.Command(bin, append(testArgs(test), "-test.count=1", "-test.v",
		"-test.timeout", (timeout+30*time.Second).String())...)
	cmd.Dir = dir
	tmp, rmTmp := TempEnv()
	defer rmTmp()
	cmd.Env = append(append(os.Environ(), env...), tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out TailBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	r := Run{}
	if err := cmd.Start(); err != nil {
		r.Output = err.Error()
		return r
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		r.TimedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	r.Wall = time.Since(start)
	r.Passed = err == nil && !r.TimedOut
	r.Output = out.String()
	return r
}

// TailBuffer keeps the last 64 KiB written to it.
type TailBuffer struct{ b []byte }

func (t *TailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 64<<10 {
		t.b = append(t.b[:0], t.b[len(t.b)-(64<<10):]...)
	}
	return len(p), nil
}

func (t *TailBuffer) String() string { return string(t.b) }

// TempEnv makes a private TMPDIR for one test process, and returns its
// environment entry and the function that removes it. A test process that
// is killed at a bound, or whose replay ends it at a verdict, runs none of
// its t.TempDir cleanups; what it leaves behind goes with this directory
// instead of piling up in the user's temp dir. On error the entry is empty
// and the process uses the usual temp dir.
func TempEnv() (string, func()) {
	dir, err := os.MkdirTemp("", "pecanvet-tmp-")
	if err != nil {
		return "", func() {}
	}
	return "TMPDIR=" + dir, func() { os.RemoveAll(dir) }
}
