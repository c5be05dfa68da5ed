package record

import (
	"context"
	"time"
)

// RecordBatchAsGiven records tests in one batch in the order given, as
// RecordBatches does when InRunOrder cannot list the binary's tests.
func (rec *Recorder) RecordBatchAsGiven(ctx context.Context, pkg string, tests []string, dir string, timeout time.Duration, out map[string]chan BatchResult) {
	rec.recordBatch(ctx, pkg, tests, dir, timeout, nil, out)
}
