package check

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/pecanvet/pecanvet/dynamic/record"
)

// recordAhead records a package's tests ahead of the test being checked,
// so that recording overlaps the prediction and replays of earlier tests.
// Test functions are recorded in a few processes (record.RecordBatches), whose
// results arrive as the tests end; what that process cannot vouch for, and
// benchmarks, examples and fuzz targets, are recorded each in its own
// process, up to GOMAXPROCS of them ahead. Either way a test's trace starts
// with the test, so it is what a recording of it alone gives; the results
// are taken in test order.
type recordAhead struct {
	ctx     context.Context
	cancel  context.CancelFunc
	b       *record.Recorder
	pkg     string
	tests   []string
	paths   []string
	opt     Options
	ahead   int
	started int
	results []chan record.Test
	batch   map[string]chan record.BatchResult
	wg      sync.WaitGroup
	// failed: the tests whose batch recording failed (wantsPlain), by
	// index, as their results arrive: failNote runs them uninstrumented
	// in one process. onFail, if set, runs at the first (it starts the
	// uninstrumented build).
	mu     sync.Mutex
	failed map[int]bool
	onFail func()
	// slots bounds the recordings alone of the tests the batch declined
	// (alone), ahead at most at once.
	slots chan struct{}
}

// newRecordAhead starts recording tests. per is the fewest tests a
// recording process gets: 4, or 1 for generated drivers, each of which
// may wait out its 5 s bound (static/driver) when its calls do not
// return (x/sync's errgroup: two such drivers in one process, 10 s of
// its check).
func newRecordAhead(ctx context.Context, b *record.Recorder, pkg string, tests []string, scratch string, opt Options, per int) (*recordAhead, error) {
	ctx, cancel := context.WithCancel(ctx)
	ra := &recordAhead{ctx: ctx, cancel: cancel, b: b, pkg: pkg, tests: tests, opt: opt, ahead: runtime.GOMAXPROCS(0),
		results: make([]chan record.Test, len(tests))}
	ra.slots = make(chan struct{}, ra.ahead)
	for ti, test := range tests {
		dir := filepath.Join(scratch, fmt.Sprintf("t%d", ti))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			cancel()
			return nil, err
		}
		p := filepath.Join(dir, "record.trace")
		if opt.KeepTraces != "" {
			p = filepath.Join(opt.KeepTraces, filepath.FromSlash(pkg), test+".trace")
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		ra.paths = append(ra.paths, p)
		ra.results[ti] = make(chan record.Test, 1)
	}
	var batch []string
	for _, t := range tests {
		if record.Batchable(t) {
			batch = append(batch, t)
		}
	}
	if len(batch) >= 2 && !opt.Alone {
		dir := filepath.Join(scratch, "batch")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			cancel()
			return nil, err
		}
		ra.batch = map[string]chan record.BatchResult{}
		ra.failed = map[int]bool{}
		index := map[string]int{}
		for ti, t := range tests {
			index[t] = ti
		}
		// The recorder's results pass through here, to note the failed.
		in := map[string]chan record.BatchResult{}
		for _, t := range batch {
			from, to, ti := make(chan record.BatchResult, 1), make(chan record.BatchResult, 1), index[t]
			in[t], ra.batch[t] = from, to
			ra.wg.Add(1)
			go func() {
				defer ra.wg.Done()
				r := <-from
				if r.OK && wantsPlain(r.Test) {
					ra.mu.Lock()
					first := len(ra.failed) == 0
					ra.failed[ti] = true
					onFail := ra.onFail
					ra.mu.Unlock()
					if first && onFail != nil {
						onFail()
					}
				}
				to <- r
				if !r.OK {
					ra.results[ti] <- ra.alone(ti)
				}
			}()
		}
		opt.progress("check: %s: recording %d tests in %d processes", pkg, len(batch), max(1, min(runtime.GOMAXPROCS(0), len(batch)/per)))
		ra.wg.Add(1)
		go func() {
			defer ra.wg.Done()
			b.RecordBatches(ctx, pkg, batch, dir, opt.Timeout, nil, in, runtime.GOMAXPROCS(0), per)
		}()
	}
	return ra, nil
}

// get returns the recording of test ti, starting the recordings of the
// next tests that run alone.
func (ra *recordAhead) get(ti int) record.Test {
	if ch := ra.batch[ra.tests[ti]]; ch != nil {
		r := <-ch
		if !r.OK {
			return <-ra.results[ti] // recording alone since it was declined
		}
		if moveFile(r.Test.Trace, ra.paths[ti]) != nil {
			return ra.alone(ti) // vouched for, but its trace is not to be had
		}
		r.Test.Trace = ra.paths[ti]
		return r.Test
	}
	ra.startUpTo(ti + ra.ahead - 1)
	return <-ra.results[ti]
}

// startUpTo starts the recordings alone, in their own processes, of the
// tests up to index last that the batch does not take.
func (ra *recordAhead) startUpTo(last int) {
	for ra.started < len(ra.tests) && ra.started <= last {
		i := ra.started
		ra.started++
		if ra.batch[ra.tests[i]] != nil {
			continue
		}
		ra.wg.Add(1)
		go func() {
			defer ra.wg.Done()
			ra.opt.progress("check: %s %s: recording", ra.pkg, ra.tests[i])
			ra.results[i] <- ra.b.RecordTest(ra.ctx, ra.pkg, ra.tests[i], ra.paths[i], ra.opt.Timeout)
		}()
	}
}

// index returns the position of test in ra.tests, or -1.
func (ra *recordAhead) index(test string) int {
	return slices.Index(ra.tests, test)
}

// alone records test ti, which the batch declined, in a process of its
// own, as soon as the batch declined it, ahead at most at once. When the
// check took them in turn, conc/pool's six tests (each of parallel
// subtests, 0.3-0.8 s) were recorded alone one after the other, 3-4 s of
// the package's wall time on 2 cores.
func (ra *recordAhead) alone(ti int) record.Test {
	select {
	case ra.slots <- struct{}{}:
		defer func() { <-ra.slots }()
	case <-ra.ctx.Done(): // the recording ends at once
	}
	ra.opt.progress("check: %s %s: recording alone", ra.pkg, ra.tests[ti])
	return ra.b.RecordTest(ra.ctx, ra.pkg, ra.tests[ti], ra.paths[ti], ra.opt.Timeout)
}

// whenFailed sets f to run at the first failed batch recording (now, if
// one failed already).
func (ra *recordAhead) whenFailed(f func()) {
	ra.mu.Lock()
	ra.onFail = f
	now := len(ra.failed) > 0
	ra.mu.Unlock()
	if now {
		f()
	}
}

// failedAfter returns the tests after ti whose batch recordings failed
// so far (wantsPlain), in order.
func (ra *recordAhead) failedAfter(ti int) []string {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	var out []string
	for tj := ti + 1; tj < len(ra.tests); tj++ {
		if ra.failed[tj] {
			out = append(out, ra.tests[tj])
		}
	}
	return out
}

// takeBatch waits for a test's batch result and, if the batch vouches
// for it, moves its trace to path.
func takeBatch(ch <-chan record.BatchResult, path string) (record.Test, bool) {
	r := <-ch
	if !r.OK || moveFile(r.Test.Trace, path) != nil {
		return record.Test{}, false
	}
	r.Test.Trace = path
	return r.Test, true
}

// moveFile renames from to to, copying across file systems.
func moveFile(from, to string) error {
	if err := os.Rename(from, to); err == nil {
		return nil
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// stop ends the recordings still running (their results are not used)
// and waits for them.
func (ra *recordAhead) stop() {
	ra.cancel()
	ra.wg.Wait()
}
