package check

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/predict/hb"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/replay/racerun"
)

// unorderedCand is a race prediction whose replay diverged, and the trace
// it was predicted from.
type unorderedCand struct {
	f    Finding
	path string
}

// confirmUnordered proves the races that no schedule runs back to back.
//
// A race prediction whose replay diverged may still be a race: the later
// access's goroutine reaches it only after observing the earlier access's
// goroutine through something that does not synchronize (polling len of a
// channel, say), so every reordering changes its path. Such a pair races
// under Go's memory model when nothing orders it, and -race reports it. The
// recorded run shows whether recorded synchronization orders it
// (hb.Ordered); what pecanvet does not record (the standard library's
// internal locks, say) could still order it, so the pair is reported only
// if Go's race detector, running the test, reports a race between the same
// two sites (racerun). That needs a -race build of the package, made only
// when such a pair is left. One finding per site combination, as for
// replays; the finding's steps are the recorded run's.
func confirmUnordered(ctx context.Context, b *testbin.Build, pkg string, acct *account, limit int64, opt Options, seen map[string]bool, rep *Report, tcs []*testCheck) {
	type cand struct {
		unorderedCand
		tr   *trace.Trace
		test string
	}
	var cands []cand
	var tests []string
	traces := map[string]*trace.Trace{}
	taken := map[string]bool{}
	for _, tc := range tcs {
		if tc == nil {
			continue
		}
		testTaken := false
		if b.Quick(pkg, tc.test) {
			// A driver whose calls did not return, run uninstrumented,
			// waits out its whole bound on them in each of the race
			// detector's runs (x/sync's errgroup: 16 runs of 5 s).
			if len(tc.diverged) > 0 {
				rep.addNote(note.Race, pkg, tc.test, "%d unordered pairs no replay could show were not checked with the race detector: the driver's calls do not return one after the other, so each of its runs would wait out the driver's bound", len(tc.diverged))
			}
			tc.diverged = nil
			continue
		}
		for _, d := range tc.diverged {
			key := d.f.Anomaly.Key
			if seen[key] || taken[key] {
				continue
			}
			tr, ok := traces[d.path]
			if !ok {
				var err error
				if tr, _, err = predict.ReadPrefix(d.path, predict.MaxEvents); err != nil {
					tr = nil
				}
				traces[d.path] = tr
			}
			if tr == nil {
				continue
			}
			taken[key] = true
			cands = append(cands, cand{d, tr, tc.test})
			if !testTaken {
				testTaken = true
				tests = append(tests, tc.test)
			}
		}
		tc.diverged = nil
	}
	if len(cands) == 0 {
		return
	}
	if acct.spent >= limit || acct.netPast() || ctx.Err() != nil {
		rep.addNote(note.Budget, pkg, "", "%s; %d races that no schedule runs back to back were not checked with the race detector", acct.spentWhy(limit), len(cands))
		return
	}
	// Charged before it runs, from what it runs: its -race runs.
	w := int64(len(tests)) * raceRuns * raceRunUnits
	acct.spent += w
	rep.Work += w
	start := time.Now()
	opt.progress("check: %s: %d unordered pairs no replay could show; asking the race detector (%s)", pkg, len(cands), strings.Join(tests, ", "))
	bin, err := b.RaceBinary(ctx, pkg)
	if err != nil {
		rep.addNote(note.Race, pkg, "", "%d races that no schedule runs back to back were not checked: %v", len(cands), err)
		return
	}
	// Every pair reported: the runs left cannot add to the answer.
	all := func(races []racerun.Race) bool {
		for _, c := range cands {
			f1, l1 := fileLine(c.f.Anomaly.Sites[0])
			f2, l2 := fileLine(c.f.Anomaly.Sites[1])
			if !slices.ContainsFunc(races, func(r racerun.Race) bool { return r.Has(f1, l1, f2, l2) }) {
				return false
			}
		}
		return true
	}
	races, err := racerun.RunRounds(ctx, bin, b.Dirs[pkg], tests, raceRuns, min(opt.Timeout, max(acct.net.Sub(now()), 10*time.Second)), raceRunsWall, all)
	rep.Time.Replay += time.Since(start)
	rep.Time.Replays++
	if err != nil {
		rep.addNote(note.Race, pkg, "", "running %s with -race: %v", strings.Join(tests, ", "), err)
		return
	}
	for _, c := range cands {
		a := c.f.Anomaly
		f1, l1 := fileLine(a.Sites[0])
		f2, l2 := fileLine(a.Sites[1])
		confirmed := false
		for _, r := range races {
			if r.Has(f1, l1, f2, l2) {
				confirmed = true
				break
			}
		}
		if !confirmed {
			continue
		}
		last := max(a.Events[0], a.Events[1])
		order := make([]int32, last+1)
		for k := range order {
			order[k] = int32(k)
		}
		s, err := trace.NewSchedule(c.tr, a.Pattern.ID(), order, a.Events)
		if err != nil {
			continue
		}
		f := c.f
		f.Test = c.test
		f.Schedule = s
		f.Verdict = replay.Verdict{Verdict: replay.Reproduced, RaceDetector: true, Steps: len(s.Steps), Step: len(s.Steps), Passed: true,
			Message: "no synchronization orders the two accesses in the recorded run, and Go's race detector reported a race between them"}
		rep.Findings = append(rep.Findings, f)
		seen[a.Key] = true
	}
}

// raceCharge is what confirmUnordered would charge for the pairs tcs
// hold so far (tests whose runs do not all wait out a driver's bound,
// pairs not proved otherwise): the perturbed recordings' phase leaves it
// under its limit.
func raceCharge(b *testbin.Build, pkg string, tcs []*testCheck, seen map[string]bool) int64 {
	n := 0
	for _, tc := range tcs {
		if tc == nil || b.Quick(pkg, tc.test) {
			continue
		}
		if slices.ContainsFunc(tc.diverged, func(d unorderedCand) bool { return !seen[d.f.Anomaly.Key] }) {
			n++
		}
	}
	return int64(n) * raceRuns * raceRunUnits
}

// raceRuns is how many times the race detector runs each test: which
// pair of sites races can depend on the schedule (TestRaceChanSendSend:
// whichever goroutine's non-blocking send finds room, the other one's
// default branch races), and the pair the recorded run showed is the one
// to confirm. With 4 runs Go's race testdata lost one or two TestRace*
// from one vet to the next (228–233 of 234); with 16, 233 in 5 of 5, in
// one process (-test.count) for only the tests that hold such pairs.
const raceRuns = 16

// raceRunsWall bounds the time the runs after the first are expected to
// take, from the first's (racerun.RunRounds): a test whose one run takes
// longer runs once (jasonlvhit/gocron's TestTaskAt, which waits for the
// next minute, 40 to 51 s recorded); Go's race testdata, whose tests take
// milliseconds, keeps its 16.
const raceRunsWall = 30 * time.Second

// fileLine splits a site "dir/file.go:12:5" into the file's base name and
// the line.
func fileLine(site string) (string, int) {
	parts := strings.Split(site, ":")
	if len(parts) < 2 {
		return "", 0
	}
	line, _ := strconv.Atoi(parts[1])
	return filepath.Base(parts[0]), line
}

// markUnordered marks the race predictions whose two accesses no recorded
// synchronization orders, in one pass over tr.
func markUnordered(tr *trace.Trace, preds []prediction) {
	var pairs [][2]int
	var idx []int
	for i, p := range preds {
		if ev := p.a.Events; p.a.Pattern.Adjacent && len(ev) == 2 {
			pairs = append(pairs, [2]int{int(min(ev[0], ev[1])), int(max(ev[0], ev[1]))})
			idx = append(idx, i)
		}
	}
	if len(pairs) == 0 {
		return
	}
	budget := 1 << 22 // events scanned by seenThrough, over the trace's pairs
	for k, ordered := range hb.OrderedPairs(tr, pairs) {
		if ordered {
			continue
		}
		i, j := pairs[k][0], pairs[k][1]
		if budget -= j - i; budget < 0 {
			break
		}
		preds[idx[k]].unordered = !seenThrough(tr, i, j)
	}
}

// seenThrough reports whether, between events i and j of tr, the later
// goroutine read a location that the earlier one wrote after i: it may
// have come to j by seeing that write, a recorded race of its own (bufwriter
// reads its buffer after a racy read of the count the writer set). Such a
// pair races too, but it follows from the race that is reported on its
// own, and whether the recorded run shows it depends on that race's
// outcome. The pairs confirmUnordered is for are those where what the
// later goroutine saw was not recorded at all: len of a channel, a select
// that took default.
func seenThrough(tr *trace.Trace, i, j int) bool {
	gi, gj := tr.Events[i].G, tr.Events[j].G
	written := map[int32]bool{}
	for k := i + 1; k < j; k++ {
		e := tr.Events[k]
		switch {
		case e.G == gi && (e.Op == trace.Write || e.Op == trace.AtomicStore || e.Op == trace.AtomicRMW):
			written[e.Obj] = true
		case e.G == gj && (e.Op == trace.Read || e.Op == trace.AtomicLoad || e.Op == trace.AtomicRMW) && written[e.Obj]:
			return true
		}
	}
	return false
}
