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
func confirmUnordered(ctx context.Context, b *testbin.Build, pkg string, acct *account, limit int64, opt Options, seen map[string]bool, rep *Report, tcs []*testCheck, ahead *raceAhead) {
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
	opt.progress("check: %s: %d unordered pairs no replay could show; asking the race detector (%s)", pkg, len(cands), strings.Join(tests, ", "))
	// The tests the runs started ahead answer for take their races
	// (raceAhead); the others run now.
	rest, races, took := tests, []racerun.Race(nil), time.Duration(0)
	if ahead != nil {
		<-ahead.done
		if ahead.err == nil {
			races, took = ahead.races, ahead.wall
			// Runs that never had all their pairs reported did not stop
			// early: each of their tests ran every round, and answers
			// for a pair of it they were not started for (a perturbed
			// recording's: TestRaceChanSendLen's chan_test.go:216) as a
			// run now would.
			full := !allRaced(ahead.sites, ahead.races)
			rest = slices.DeleteFunc(slices.Clone(tests), func(t string) bool {
				return ahead.pairs[t] != nil && (full || !slices.ContainsFunc(cands, func(c cand) bool { return c.test == t && !ahead.pairs[t][c.f.Anomaly.Key] }))
			})
			opt.progress("check: %s: the race detector's runs started after the first runs answer for %d of the %d tests", pkg, len(tests)-len(rest), len(tests))
		}
	}
	if len(rest) > 0 {
		rstart := time.Now()
		bin, err := raceBinary(b, ctx, pkg)
		if err != nil {
			rep.addNote(note.Race, pkg, "", "%d races that no schedule runs back to back were not checked: %v", len(cands), err)
			return
		}
		// Every pair reported: the runs left cannot add to the answer.
		sites := make([][2]string, len(cands))
		for i, c := range cands {
			sites[i] = [2]string{c.f.Anomaly.Sites[0], c.f.Anomaly.Sites[1]}
		}
		before := races
		more, err := raceRounds(ctx, bin, b.Dirs[pkg], rest, raceRuns, min(opt.Timeout, max(acct.net.Sub(now()), 10*time.Second)), raceRunsWall, func(r []racerun.Race) bool {
			return allRaced(sites, append(slices.Clone(before), r...))
		})
		took += time.Since(rstart)
		if err != nil {
			rep.Time.Replay += took
			rep.Time.Replays++
			rep.addNote(note.Race, pkg, "", "running %s with -race: %v", strings.Join(rest, ", "), err)
			return
		}
		races = append(slices.Clone(races), more...)
	}
	rep.Time.Replay += took
	rep.Time.Replays++
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

// raceBinary and raceRounds are testbin.Build.RaceBinary and
// racerun.RunRounds (variables for tests).
var (
	raceBinary = (*testbin.Build).RaceBinary
	raceRounds = racerun.RunRounds
)

// allRaced reports whether races hold a race between each pair of sites.
func allRaced(sites [][2]string, races []racerun.Race) bool {
	for _, s := range sites {
		f1, l1 := fileLine(s[0])
		f2, l2 := fileLine(s[1])
		if !slices.ContainsFunc(races, func(r racerun.Race) bool { return r.Has(f1, l1, f2, l2) }) {
			return false
		}
	}
	return true
}

// raceAhead is the race detector's runs for the unordered pairs the
// tests' first runs left, started as soon as those runs' replays are done
// (startRaceAhead), beside the perturbed recordings and their replays:
// after them, the runs were the check's last step, one process after
// another (Go's race testdata: 3 s of 54 at load 35, after 4 s of
// perturbed recordings that left one of the two cores idle while they
// recorded). confirmUnordered still decides, after the perturbed
// recordings, which pairs are asked about and charges for them as
// before; it takes these runs' races for the tests whose pairs are all
// among those the runs were started for, or all of whose rounds ran (no
// early stop), and runs the others itself. A pair the perturbed
// recordings' replays reproduced is not asked about, whatever these runs
// said of it.
type raceAhead struct {
	pairs  map[string]map[string]bool // test → the keys of its pairs asked about
	sites  [][2]string                // the pairs' sites
	cancel context.CancelFunc
	done   chan struct{}
	races  []racerun.Race
	err    error
	wall   time.Duration
}

// startRaceAhead starts the race detector's runs for the pairs
// confirmUnordered would ask about now (nil: none, or no budget left, as
// it would decide).
func startRaceAhead(ctx context.Context, b *testbin.Build, pkg string, acct *account, limit int64, opt Options, seen map[string]bool, tcs []*testCheck) *raceAhead {
	if acct.spent >= limit || acct.netPast() || ctx.Err() != nil {
		return nil
	}
	var tests []string
	var sites [][2]string
	pairs := map[string]map[string]bool{}
	taken := map[string]bool{}
	for _, tc := range tcs {
		if tc == nil || b.Quick(pkg, tc.test) {
			continue
		}
		for _, d := range tc.diverged {
			key := d.f.Anomaly.Key
			if seen[key] || taken[key] {
				continue
			}
			taken[key] = true
			if pairs[tc.test] == nil {
				pairs[tc.test] = map[string]bool{}
				tests = append(tests, tc.test)
			}
			pairs[tc.test][key] = true
			sites = append(sites, [2]string{d.f.Anomaly.Sites[0], d.f.Anomaly.Sites[1]})
		}
	}
	if len(tests) == 0 {
		return nil
	}
	rctx, cancel := context.WithCancel(ctx)
	ra := &raceAhead{pairs: pairs, sites: sites, cancel: cancel, done: make(chan struct{})}
	timeout := min(opt.Timeout, max(acct.net.Sub(now()), 10*time.Second))
	opt.progress("check: %s: %d unordered pairs left by the first runs; asking the race detector (%s) while the perturbed recordings run", pkg, len(sites), strings.Join(tests, ", "))
	go func() {
		defer close(ra.done)
		start := time.Now()
		bin, err := raceBinary(b, rctx, pkg)
		if err == nil {
			ra.races, err = raceRounds(rctx, bin, b.Dirs[pkg], tests, raceRuns, timeout, raceRunsWall, func(r []racerun.Race) bool { return allRaced(sites, r) })
		}
		ra.err, ra.wall = err, time.Since(start)
	}()
	return ra
}

// stop ends the runs, if still running, and waits for them.
func (ra *raceAhead) stop() {
	if ra == nil {
		return
	}
	ra.cancel()
	<-ra.done
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
