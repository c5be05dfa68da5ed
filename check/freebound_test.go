package check

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
)

// TestFreeBoundCapped: the schedule replays of a test whose recording
// its cap ended get a bound on their free run (replay.Options.FreeBound)
// from the recording's length, and run alone, not batched (the bound ends
// their process); those of a test recorded to its end get none.
func TestFreeBoundCapped(t *testing.T) {
	if got := freeBoundOf(21439); got != 4*21439 {
		t.Errorf("freeBoundOf(21439) = %d, want 4 times the recording", got)
	}
	if got := freeBoundOf(100); got != freeBoundMin {
		t.Errorf("freeBoundOf(100) = %d, want the minimum %d", got, freeBoundMin)
	}
	var (
		mu     sync.Mutex
		bounds = map[string]int64{}
	)
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		mu.Lock()
		bounds[test] = opt.FreeBound
		mu.Unlock()
		return replay.Verdict{Verdict: replay.Diverged}
	}
	defer func() { runReplay = replayRetrying }()
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, map[string]bool{})
	tr := &trace.Trace{Events: make([]trace.Event, 30000)}
	capped := q.addBatch("TCapped", tr, batchPreds(t, []batchPred{{key: "a", site: "1"}}), t.TempDir(), 50, replay.Options{}, true, true)
	whole := q.addBatch("TWhole", tr, batchPreds(t, []batchPred{{key: "b", site: "1"}}), t.TempDir(), 50, replay.Options{}, false, false)
	q.wait()
	if capped.batch || capped.freeBound != 4*30000 || whole.freeBound != 0 {
		t.Errorf("capped: batch %v, bound %d; whole: bound %d; want false, %d; 0", capped.batch, capped.freeBound, whole.freeBound, 4*30000)
	}
	if bounds["TCapped"] != 4*30000 || bounds["TWhole"] != 0 {
		t.Errorf("replays' FreeBound: %v, want TCapped 120000, TWhole 0", bounds)
	}
}
