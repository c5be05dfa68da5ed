package check

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/ssatrace/predict"
	"github.com/pecanvet/pecanvet/ssatrace/record"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// prediction is one predicted anomaly of a test with its schedule.
type prediction struct {
	a predict.Anomaly
	s *trace.Schedule
}

// Replay outcome of a prediction in a batch.
const (
	pOpen    = iota // not known yet whether it is needed
	pNeeded         // to replay
	pRunning        // replaying
	pDone           // replayed
	pSkipped        // not needed: its site combination is proved, or the same schedule ran
	pDropped        // needed, but over -max-replays or the budget
)

// replayBatch replays a test's predictions, in the order the search
// proposed them, up to GOMAXPROCS at a time, with the outcome of replaying
// them one after the other: for each site combination, its instances in
// order until one is reproduced, at most opt.MaxReplays replays in all.
// So the findings (appended to rep in prediction order) do not depend on
// timing. To get there without replays that turn out useless, an instance
// starts only once the earlier instances of its combination were pruned,
// and only when it is surely among the first MaxReplays needed. A
// schedule identical to one already replayed (another instance with the
// same steps) is not replayed again. It returns the number of needed
// predictions not replayed.
func replayBatch(ctx context.Context, b *record.Build, pkg, test string, tr *trace.Trace, preds []prediction,
	dir string, deadline time.Time, opt Options, seen map[string]bool, rep *Report) int {
	n := len(preds)
	state := make([]int, n)
	verdicts := make([]replay.Verdict, n)
	texts := make([]string, n)
	for i, p := range preds {
		var buf bytes.Buffer
		p.s.WriteTo(&buf)
		texts[i] = buf.String()
	}
	type result struct {
		i int
		v replay.Verdict
		d time.Duration
	}
	workers := runtime.GOMAXPROCS(0)
	done := make(chan result)
	running := 0
	proved := map[string]bool{} // site combinations reproduced in this batch
	ran := map[string]int{}     // schedule text → a prediction that replayed it
	for {
		// Resolve what is needed, in order; start what can start.
		before := fmt.Sprint(state)
		open, needed := 0, 0 // before i: undecided, and needed so far
		for i := range preds {
			k := preds[i].a.Key
			if state[i] == pOpen {
				switch {
				case seen[k] || proved[k]:
					state[i] = pSkipped
				case earlierOpen(preds, state, i):
					// wait for the earlier instances of k
				default:
					if j, ok := ran[texts[i]]; ok && j < i {
						state[i] = pSkipped // same steps, same outcome
					} else {
						state[i] = pNeeded
					}
				}
			}
			switch state[i] {
			case pOpen:
				open++
			case pNeeded:
				if needed+open >= opt.MaxReplays || time.Now().After(deadline) {
					// Surely over the limit only when nothing before it
					// is undecided; otherwise wait.
					if open == 0 || time.Now().After(deadline) {
						state[i] = pDropped
					}
					needed++
					continue
				}
				needed++
				if running < workers {
					state[i] = pRunning
					running++
					ran[texts[i]] = i
					opt.progress("check: %s %s: replay %d (%s %s)", pkg, test, i+1, preds[i].a.Pattern.ID(), preds[i].a.Sites[0])
					go func(i int) {
						start := time.Now()
						v := runReplay(ctx, b, pkg, test, preds[i].s, filepath.Join(dir, fmt.Sprintf("r%d", i+1)), opt.Replay)
						done <- result{i, v, time.Since(start)}
					}(i)
				}
			case pRunning, pDone, pDropped:
				needed++
			}
		}
		if running == 0 {
			if fmt.Sprint(state) != before {
				continue // decisions made: another pass
			}
			break
		}
		r := <-done
		running--
		rep.Time.Replay += r.d
		rep.Time.Replays++
		opt.progress("check: %s %s: replay %d: %s in %v", pkg, test, r.i+1, r.v.Verdict, r.d.Round(time.Millisecond))
		state[r.i], verdicts[r.i] = pDone, r.v
		if r.v.Verdict == replay.Reproduced {
			proved[preds[r.i].a.Key] = true
		}
	}
	skipped := 0
	for i, p := range preds {
		switch state[i] {
		case pDone:
			f := Finding{Package: pkg, Test: test, Anomaly: p.a, Schedule: p.s, Verdict: verdicts[i]}
			for _, e := range p.a.Events {
				ev := tr.Events[e]
				f.Goroutines = append(f.Goroutines, tr.Goroutines[ev.G])
				f.Objects = append(f.Objects, tr.ObjName(ev))
			}
			rep.Findings = append(rep.Findings, f)
			if f.Reproduced() {
				seen[p.a.Key] = true
			}
		case pDropped, pNeeded, pOpen:
			skipped++
		}
	}
	return skipped
}

// earlierOpen reports whether an instance of prediction i's site
// combination before it is still to be decided or replayed.
func earlierOpen(preds []prediction, state []int, i int) bool {
	for j := 0; j < i; j++ {
		if preds[j].a.Key == preds[i].a.Key {
			switch state[j] {
			case pOpen, pNeeded, pRunning:
				return true
			}
		}
	}
	return false
}

// runReplay is replayRetrying (a variable for tests).
var runReplay = replayRetrying
