package check

import (
	"context"
	"time"

	"github.com/pecanvet/pecanvet/ssatrace/predict"
	"github.com/pecanvet/pecanvet/ssatrace/record"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// prediction is one predicted anomaly of a test with its schedule.
type prediction struct {
	a predict.Anomaly
	s *trace.Schedule
	// unordered: a race whose accesses no recorded synchronization orders
	// (hb.Ordered); if its replay diverges, the race detector may still
	// confirm it (confirmUnordered).
	unordered bool
}

// Replay outcome of a prediction in a batch.
const (
	pOpen    = iota // not known yet whether it is needed
	pNeeded         // to replay
	pRunning        // replaying
	pDone           // replayed
	pSkipped        // not needed: its site combination is proved, or the same schedule ran
	pDropped        // needed, but over -max-replays or the budget
	pDoomed         // not needed: an earlier replay of its trace showed it would deadlock (doom)
)

// replayBatch replays a test's predictions (a queue of one trace: see
// replayQueue), appends the findings to rep and the reproduced site
// combinations to seen, and returns the number of needed predictions not
// replayed.
func replayBatch(ctx context.Context, b *record.Build, pkg, test string, tr *trace.Trace, preds []prediction,
	dir string, deadline time.Time, opt Options, seen map[string]bool, rep *Report) int {
	q := newReplayQueue(ctx, b, pkg, deadline, opt, seen)
	q.add(test, tr, preds, dir, opt.MaxReplays, opt.Replay)
	q.wait()
	return q.finish(seen, rep)[0].skipped
}

// runReplay is replayRetrying (a variable for tests).
var runReplay = replayRetrying
