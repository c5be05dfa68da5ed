package record

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
)

// Recording many tests in one process.
//
// A process per test costs the binary's start and the package's
// initialization each time, which on a package of hundreds of small tests
// is most of the recording. RecordBatch runs the package's test functions
// in one process instead, the recorder writing each top-level test's
// trace to a file of its own (rt.EnvTraceDir): a test's trace starts with
// the test (rt.TestStart), as it does when the test runs alone with
// testbin.Build.TestEnv, so the two are alike and replays of either run the test alone.
//
// What the process cannot vouch for is left to a recording of the test
// alone: a test that paused for t.Parallel (it ran on after its end,
// interleaved with others), a test with no trace (no TestStart: its file
// was not instrumented, or t has no name), a test that failed and after
// which no other test started (its whole output tells how: a panic's
// message comes after its "--- FAIL" line), and the test during which
// the process died (a panic, os.Exit, a crash: the tests after it run in
// a new process). A
// test that hangs is killed at timeout, its trace kept. Between tests
// nothing is recorded.

// Batchable reports whether RecordBatch can record test.
func Batchable(test string) bool { return strings.HasPrefix(test, "Test") }

// BatchResult is RecordBatch's word on one test: its recording, or !OK
// when it must be recorded alone.
type BatchResult struct {
	Test Test
	OK   bool
}

// RecordBatch records tests (all Batchable) of pkg in as few processes as
// it can, writing test T's trace to dir/T.trace, and sends each test's
// result on out[T] (buffered by the caller) as soon as it is known. env
// is added to each process's environment (a perturbation seed). It
// returns when every test has its result.
func (rec *Recorder) RecordBatch(ctx context.Context, pkg string, tests []string, dir string, timeout time.Duration, env []string, out map[string]chan BatchResult) {
	rec.RecordBatches(ctx, pkg, tests, dir, timeout, env, out, 1, 4)
}

// RecordBatches is RecordBatch with the tests split into n runs of
// consecutive tests, each in processes of its own, run at the same time:
// a test's end-of-test drain (up to a second when its goroutines sleep)
// and a heavy test then hold up only their part. Each process gets at
// least per tests (a process's start and the package's initialization
// are worth sharing among a few).
func (rec *Recorder) RecordBatches(ctx context.Context, pkg string, tests []string, dir string, timeout time.Duration, env []string, out map[string]chan BatchResult, n, per int) {
	tests = rec.InRunOrder(ctx, pkg, tests) // each process's tests in the binary's order, so that a process's failure stops the fewest
	n = max(1, min(n, len(tests)/max(1, per)))
	var wg sync.WaitGroup
	for i := range n {
		part := tests[i*len(tests)/n : (i+1)*len(tests)/n]
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec.recordBatch(ctx, pkg, part, dir, timeout, env, out)
		}()
	}
	wg.Wait()
}

func (rec *Recorder) recordBatch(ctx context.Context, pkg string, tests []string, dir string, timeout time.Duration, env []string, out map[string]chan BatchResult) {
	todo := tests
	for len(todo) > 0 && ctx.Err() == nil {
		started := rec.batchOnce(ctx, pkg, todo, dir, timeout, env, out)
		if len(started) == 0 {
			break
		}
		// The tests that started have their results, wherever they are
		// in todo: the binary runs them in its own order, which todo
		// follows only when InRunOrder could list the binary's tests.
		// Taken as a prefix, a test that did not start got no result,
		// and the check waited for it for ever, while one that had its
		// result ran again and was sent a second one (progressbar's go
		// vet, "all goroutines are asleep" in check's recordAhead.get).
		todo = slices.DeleteFunc(slices.Clone(todo), func(t string) bool { return slices.Contains(started, t) })
	}
	for _, t := range todo {
		out[t] <- BatchResult{}
	}
}

var (
	runLine   = regexp.MustCompile(`^=== RUN   (\S+)$`)
	pauseLine = regexp.MustCompile(`^=== PAUSE (\S+)$`)
	endLine   = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+) \(`)
)

// batchOnce runs tests in one process and sends the results of those that
// started; it returns their names (in the order the binary ran them).
func (rec *Recorder) batchOnce(ctx context.Context, pkg string, tests []string, dir string, timeout time.Duration, env []string, out map[string]chan BatchResult) []string {
	quoted := make([]string, len(tests))
	for i, t := range tests {
		quoted[i] = regexp.QuoteMeta(t)
	}
	cmd := exec.Command(rec.Binaries[pkg], append([]string{"-test.run", "^(" + strings.Join(quoted, "|") + ")$", "-test.count=1", "-test.v", "-test.timeout=0"}, testbin.Flags(rec.Dirs[pkg])...)...)
	wd, tmp, alone, rmTmp := testbin.PrivateFor(rec.Dirs[pkg], tests)
	defer rmTmp()
	cmd.Dir = wd
	cmd.Env = append(append(os.Environ(), "PECANVET_TRACE_DIR="+dir), append(rec.env(env), tmp)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pw.Close()
		return nil
	}

	type state struct {
		name     string
		start    time.Time
		wall     time.Duration
		result   string
		paused   bool
		timedOut bool
		out      testbin.TailBuffer
		sent     bool
		// read: the trace's counts, when endedByRT has read them already
		// (send then does not read the file again: a trace cut at the
		// event cap is a million events).
		read *Test
	}
	var (
		smu    sync.Mutex
		order  []*state
		byName = map[string]*state{}
		cur    *state       // the top-level test running
		last   = time.Now() // the process's last line of output
		// failed: the last test to end, if it failed; its output goes on
		// until the next test starts (a panic's message, say).
		failed *state
	)
	// send delivers st's result (smu held); ok: the process vouches for it.
	send := func(st *state, ok bool) {
		if st.sent {
			return
		}
		st.sent = true
		if !alone && st.result == "FAIL" && testbin.Collided(st.out.String()) {
			// Failed binding a port another process of the package
			// held: recorded alone (testbin.RunTest), not so.
			ok = false
		}
		path := filepath.Join(dir, st.name+".trace")
		t := Test{Package: pkg, Name: st.name, Trace: path, Wall: st.wall, Passed: st.result == "PASS" || st.result == "SKIP",
			Skipped:  st.result == "SKIP",
			TimedOut: st.timedOut, Output: st.out.String()}
		if ok {
			if st.read != nil {
				t.copyStats(st.read)
			} else {
				ok = t.setStats(path) == nil
			}
			if st.timedOut {
				t.Truncated = "timed out after " + timeout.String()
			}
		}
		t.Batched = ok && !st.paused
		out[st.name] <- BatchResult{Test: t, OK: t.Batched}
	}
	complete := func(st *state) bool {
		_, err := os.Stat(filepath.Join(dir, st.name+".done"))
		return err == nil
	}

	// The watchdog kills the process when a test runs past timeout, or
	// when ctx ends, or when it is quiet for timeout with no sequential
	// test running: paused parallel tests resumed after the last one, a
	// TestMain after m.Run, or init. The tests not sent then are recorded
	// alone, each under its own bound.
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				return
			case <-t.C:
				smu.Lock()
				if cur != nil && cur.result == "" && time.Since(cur.start) > timeout {
					cur.timedOut = true
					cur.wall = time.Since(cur.start)
					syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				} else if (cur == nil || cur.result != "") && time.Since(last) > timeout {
					syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				}
				smu.Unlock()
			}
		}
	}()
	waited := make(chan struct{})
	go func() {
		cmd.Wait()
		pw.Close()
		close(waited)
	}()

	rd := bufio.NewReaderSize(pr, 64<<10)
	for {
		line, err := rd.ReadString('\n')
		l := strings.TrimRight(line, "\r\n")
		smu.Lock()
		last = time.Now()
		if m := runLine.FindStringSubmatch(l); m != nil && !strings.Contains(m[1], "/") {
			if failed != nil {
				// The process went on to the next test, so the failure
				// was no panic, os.Exit or crash: its output is whole,
				// and the process vouches for it as for a pass (redigo's
				// 25 tests that need a redis-server, each recorded again
				// alone, 5 s of its check).
				send(failed, complete(failed))
				failed = nil
			}
			if st := byName[m[1]]; st != nil {
				// The test runs again in this process: a TestMain that
				// calls m.Run more than once (pogreb's, once per file
				// system). rt keeps its first run's trace (traced), and
				// its result went out at that run's end: a second send
				// would block on a channel that holds one, with smu
				// held, and the whole check with it (pogreb's go vet
				// ended in "all goroutines are asleep").
				cur = st
			} else {
				cur = &state{name: m[1], start: time.Now()}
				order = append(order, cur)
				byName[cur.name] = cur
			}
		} else if m := pauseLine.FindStringSubmatch(l); m != nil {
			name := m[1]
			if i := strings.IndexByte(name, '/'); i >= 0 {
				name = name[:i]
			}
			if st := byName[name]; st != nil {
				// The test itself paused: it runs on after the
				// sequential tests; or a subtest did: it runs after
				// the test function returned, where the test's trace
				// ends. Either way the process cannot vouch for it.
				// Said now, its recording alone starts now, beside the
				// batch, not after it (x/sync's TestWeighted, 7 s, ran
				// twice in turn; conc/pool's six tests of parallel
				// subtests were each declined only at their end).
				st.paused = true
				send(st, false)
			}
		}
		if cur != nil && line != "" {
			cur.out.Write([]byte(line))
		}
		if m := endLine.FindStringSubmatch(l); m != nil && byName[m[2]] != nil {
			// Printed after the test function returned, so after its
			// trace was finished (or it had none).
			st := byName[m[2]]
			st.result = m[1]
			st.wall = time.Since(st.start)
			// A failing test waits for the next test to start (failed);
			// the last one is recorded again alone: its output goes on
			// after this line (a panic's message, say), and its failure
			// is judged from the whole of it.
			if st.result == "FAIL" {
				failed = st
			} else {
				send(st, complete(st))
			}
		}
		smu.Unlock()
		if err != nil {
			break
		}
	}
	<-waited
	close(stop)
	smu.Lock()
	defer smu.Unlock()
	for _, st := range order {
		// Not sent yet: timed out (its trace, cut, is used) or the
		// process died during it (recorded alone, it shows why), unless
		// rt ended it for a hang or a stall: then the trace is whole up
		// to where every goroutine waited, finished and marked by rt
		// (rt/hang.go), as alone, where it would wait the bound again
		// (looplab/fsm's TestContextInCallbacks, hung perturbed in the
		// batch, took 5 s more alone). Likewise at the event cap
		// (rt.endCapped): alone, it would stop at the same count.
		if !st.sent && !st.timedOut && st.result == "" {
			if read, ok := endedByRT(filepath.Join(dir, st.name+".trace")); ok {
				st.wall, st.read = time.Since(st.start), read
				send(st, true)
				continue
			}
		}
		send(st, st.timedOut)
	}
	started := make([]string, len(order))
	for i, st := range order {
		started[i] = st.name
	}
	return started
}

// endedByRT reports whether the trace at path was finished by rt as it
// ended the process: marked hung (every goroutine blocked for good),
// stalled, or cut at the event cap. If so, it also returns the counts it
// read off the trace, for the test's result.
func endedByRT(path string) (*Test, bool) {
	var t Test
	if t.setStats(path) != nil {
		return nil, false
	}
	if strings.HasPrefix(t.Truncated, "hung: ") || strings.HasPrefix(t.Truncated, "stalled: ") || EndedAtCap(t) {
		return &t, true
	}
	return nil, false
}

// EndedAtCap reports whether t's recording stopped at its event or
// goroutine cap (Recorder.MaxEvents, MaxGoroutines) and ended the test there: its failure is then
// the recorder's, not the test's.
func EndedAtCap(t Test) bool {
	return !t.Passed && !t.TimedOut && strings.HasPrefix(t.Truncated, "cut at ")
}
