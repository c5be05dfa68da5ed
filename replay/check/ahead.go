package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/pecanvet/pecanvet/ssatrace/record"
)

// recordAhead records a package's tests, each in its own process as
// record.RecordTest does, up to GOMAXPROCS of them ahead of the test being
// checked: the recordings of the next tests overlap the prediction and
// replays of this one. Each test still runs alone in its process, so its
// trace is what a recording of it alone gives; the results are taken in
// test order.
type recordAhead struct {
	ctx     context.Context
	cancel  context.CancelFunc
	b       *record.Build
	pkg     string
	tests   []string
	paths   []string
	opt     Options
	ahead   int
	started int
	results []chan record.Test
	wg      sync.WaitGroup
}

func newRecordAhead(ctx context.Context, b *record.Build, pkg string, tests []string, scratch string, opt Options) (*recordAhead, error) {
	ctx, cancel := context.WithCancel(ctx)
	ra := &recordAhead{ctx: ctx, cancel: cancel, b: b, pkg: pkg, tests: tests, opt: opt, ahead: runtime.GOMAXPROCS(0),
		results: make([]chan record.Test, len(tests))}
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
	return ra, nil
}

// get returns the recording of test ti, starting it and the next ones.
func (ra *recordAhead) get(ti int) record.Test {
	for ra.started < len(ra.tests) && ra.started <= ti+ra.ahead-1 {
		i := ra.started
		ra.started++
		ra.wg.Add(1)
		go func() {
			defer ra.wg.Done()
			ra.opt.progress("check: %s %s: recording", ra.pkg, ra.tests[i])
			ra.results[i] <- ra.b.RecordTest(ra.ctx, ra.pkg, ra.tests[i], ra.paths[i], ra.opt.Timeout)
		}()
	}
	return <-ra.results[ti]
}

// stop ends the recordings still running (their results are not used)
// and waits for them.
func (ra *recordAhead) stop() {
	ra.cancel()
	ra.wg.Wait()
}
