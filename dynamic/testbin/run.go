package testbin

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
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
// process group after timeout. A run beside other processes of its
// package that failed with a collision's message (Collided) is no fact
// about the test: the test is marked SetAlone and run again, alone (the
// verdict file a replay's first run wrote, if any, removed first).
func RunTest(ctx context.Context, bin, dir, test string, env []string, timeout time.Duration) Run {
	r, alone := runTest(ctx, bin, dir, test, env, timeout)
	if alone || r.Passed || r.TimedOut || !Collided(r.Output) || ctx.Err() != nil {
		return r
	}
	SetAlone(dir, test, true)
	for _, e := range env {
		if p, ok := strings.CutPrefix(e, envVerdict+"="); ok {
			os.Remove(p)
		}
	}
	r, _ = runTest(ctx, bin, dir, test, env, timeout)
	return r
}

// envVerdict is the runtime's verdict file's variable (replay.RunFile).
const envVerdict = "PECANVET_VERDICT"

func runTest(ctx context.Context, bin, dir, test string, env []string, timeout time.Duration) (Run, bool) {
	// -test.timeout slightly above ours makes the test binary itself dump
	// goroutines if our kill somehow does not land.
	cmd := exec.Command(bin, append(append(testArgs(test), "-test.count=1", "-test.v",
		"-test.timeout", (timeout+30*time.Second).String()), Flags(dir)...)...)
	// The package's lock first: the time bound counts from the start.
	wd, tmp, alone, rmTmp := PrivateFor(dir, []string{test})
	defer rmTmp()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd.Dir = wd
	cmd.Env = append(append(os.Environ(), env...), tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out TailBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	r := Run{}
	if err := cmd.Start(); err != nil {
		r.Output = err.Error()
		return r, alone
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
	return r, alone
}

var (
	runLine = regexp.MustCompile(`^=== RUN   (\S+)$`)
	endLine = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+) \(`)
)

// RunTests runs test functions of bin in dir in one process, as go test
// runs them, and returns whether each passed, for those that ran to an
// end line. Each test may run for timeout; past it the process is killed
// and that test counts as failed, as RunTest counts it. clean reports
// whether the process exited with status 0: otherwise something outside
// the tests' end lines failed too (a TestMain's leak check), which a test
// run alone would have failed with, so a caller should not take the
// passes as RunTest's. A test that ran to no end line (a panic in another
// goroutine, an os.Exit) has no entry; nor has one that failed in a
// process that ran beside others of its package and printed a
// collision's message (Collided): RunTest tells.
func RunTests(ctx context.Context, bin, dir string, tests []string, env []string, timeout time.Duration) (passed map[string]bool, clean bool) {
	passed = map[string]bool{}
	quoted := make([]string, len(tests))
	for i, t := range tests {
		quoted[i] = regexp.QuoteMeta(t)
	}
	cmd := exec.Command(bin, append([]string{"-test.run", "^(" + strings.Join(quoted, "|") + ")$", "-test.count=1", "-test.v",
		"-test.timeout", (time.Duration(len(tests))*timeout + 30*time.Second).String()}, Flags(dir)...)...)
	wd, tmp, alone, rmTmp := PrivateFor(dir, tests)
	defer rmTmp()
	cmd.Dir = wd
	cmd.Env = append(append(os.Environ(), env...), tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pw.Close()
		return passed, false
	}
	var (
		mu       sync.Mutex
		cur      string // the test running, "" between tests
		since    time.Time
		timedOut bool
		collided bool
	)
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			case <-ctx.Done():
			}
			mu.Lock()
			over := cur != "" && time.Since(since) > timeout || ctx.Err() != nil
			timedOut = timedOut || over
			mu.Unlock()
			if over {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				return
			}
		}
	}()
	waited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		pw.Close()
		waited <- err
	}()
	sc := bufio.NewScanner(pr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), "\r")
		collided = collided || Collided(l)
		if m := runLine.FindStringSubmatch(l); m != nil && !strings.Contains(m[1], "/") {
			mu.Lock()
			cur, since = m[1], time.Now()
			mu.Unlock()
		} else if m := endLine.FindStringSubmatch(l); m != nil && !strings.Contains(m[2], "/") {
			passed[m[2]] = m[1] != "FAIL"
			mu.Lock()
			cur = ""
			mu.Unlock()
		}
	}
	io.Copy(io.Discard, pr) // a line past the scanner's bound: let the process end
	err := <-waited
	close(stop)
	mu.Lock()
	defer mu.Unlock()
	if timedOut && cur != "" && ctx.Err() == nil {
		passed[cur] = false // killed at its bound, as RunTest's TimedOut
	}
	if collided && !alone {
		for t, ok := range passed {
			if !ok {
				delete(passed, t)
			}
		}
	}
	return passed, err == nil && !timedOut
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
