package check

import (
	"context"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict/schedule"
	"github.com/pecanvet/pecanvet/replay"
)

// TestFiltersOrder: of two instances of one site combination, the one
// whose schedule makes a read that its goroutine goes on from read another
// write is replayed last; once the other is reproduced it is not replayed
// at all, and Report.Filtered counts the replay saved. With NoFilters the
// search's order stays and both are replayed.
func TestFiltersOrder(t *testing.T) {
	// g1 writes x, reads it, writes y; g2 writes x. Tail [2 1 3] puts g2's
	// write between g1's write and read, and g1 goes on after the read.
	ev := func(g int32, op trace.Op, obj int32) trace.Event {
		return trace.Event{G: g, Op: op, Obj: obj, Site: trace.NoIndex}
	}
	tr := &trace.Trace{
		Tables: trace.Tables{Goroutines: []string{"g1", "g2"}, Objects: []string{"x", "y"}},
		Events: []trace.Event{ev(0, trace.Write, 0), ev(0, trace.Read, 0), ev(1, trace.Write, 0), ev(0, trace.Write, 1)},
	}
	for _, off := range []bool{false, true} {
		preds := batchPreds(t, []batchPred{{key: "k", site: "1", repro: false}, {key: "k", site: "2", repro: true}})
		preds[0].a.Schedule = schedule.Schedule{Prefix: 1, Tail: []int32{2, 1, 3}} // breaks g1's read
		preds[1].a.Schedule = schedule.Schedule{Prefix: 4}                         // the recorded order
		repro := preds[1].s
		runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
			if p.s == repro {
				return replay.Verdict{Verdict: replay.Reproduced, Wall: time.Second}
			}
			return replay.Verdict{Verdict: replay.Diverged, Wall: time.Second}
		}
		flt := newFilters(tr, Options{NoFilters: off, RankReadsFrom: true})
		for i := range preds {
			n := len(preds[i].a.Schedule.Tail)
			flt.rate(&preds[i])
			if want := n * btoi(n <= maxKeptTail); len(preds[i].a.Schedule.Tail) != want {
				t.Fatalf("rate left prediction %d a tail of %d steps of %d, want %d", i, len(preds[i].a.Schedule.Tail), n, want)
			}
		}
		preds = flt.order(preds)
		rep := &Report{}
		replayBatch(context.Background(), nil, "p", "T", tr, preds, t.TempDir(), time.Now().Add(time.Hour), Options{MaxReplays: 10}, map[string]bool{}, rep)
		flt.count(preds, rep.Findings, rep)
		switch {
		case !off && (len(rep.Findings) != 1 || !rep.Findings[0].Reproduced()):
			t.Errorf("filters on: %d replays, want the reproducing one only", len(rep.Findings))
		case !off && (rep.Filtered[FilterReadsFrom].Replays != 1 || rep.Filtered[FilterReadsFrom].Moved != 1 || rep.Filtered[FilterReadsFrom].Seconds != 1):
			t.Errorf("filters on: counted %+v", *rep.Filtered[FilterReadsFrom])
		case off && (len(rep.Findings) != 2 || rep.Filtered != nil):
			t.Errorf("filters off: %d replays, filtered %v", len(rep.Findings), rep.Filtered)
		}
	}
	runReplay = replayRetrying
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
