// Package check runs pecanvet's whole dynamic loop on packages: record each
// test (ssatrace/record), predict its anomalies (ssatrace/predict), replay
// each prediction's schedule (replay), and keep only what was reproduced.
// It is what `pecanvet check` prints and what the vet tool confirms its
// candidates with. Every step is bounded: per-test recording and replay
// timeouts, a maximum number of replays per test and a time budget per
// package, each reported when hit.
package check

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/ssatrace/pattern"
	"github.com/pecanvet/pecanvet/ssatrace/predict"
	"github.com/pecanvet/pecanvet/ssatrace/record"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// Options bound a check.
type Options struct {
	Dir        string
	Patterns   []string // package patterns
	Run        string   // test regexp
	Anomalies  []*pattern.Pattern
	Timeout    time.Duration // recording, per test; default 2m
	Replay     replay.Options
	MaxReplays int           // per test; default 50
	Budget     time.Duration // per package; default 5m
	BuildFlags []string
	Progress   io.Writer // progress lines, if not nil
	KeepTraces string    // if set, keep the recorded traces here
	Drivers    bool      // generate test drivers for packages without tests
}

// Finding is one prediction and what replay made of it.
type Finding struct {
	Package, Test string
	Anomaly       predict.Anomaly
	Schedule      *trace.Schedule
	Verdict       replay.Verdict
	Goroutines    []string // of the anomaly's events, in pattern order
	Objects       []string
}

// ObjectNames returns the objects of the anomaly's events without their
// "#k" instance suffixes, each once.
func (f *Finding) ObjectNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range f.Objects {
		if k := strings.LastIndexByte(o, '#'); k > 0 {
			o = o[:k]
		}
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}

// Reproduced reports whether the finding was proved.
func (f *Finding) Reproduced() bool { return f.Verdict.Verdict == replay.Reproduced }

// Report is the outcome of a check.
type Report struct {
	Findings []Finding // reproduced and pruned, in order
	Notes    []string  // skipped work, bounds hit, build notes
	Tests    int
	Events   int
}

// Reproduced returns the proved findings.
func (r *Report) Reproduced() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Reproduced() {
			out = append(out, f)
		}
	}
	return out
}

// Run checks the packages.
func Run(ctx context.Context, opt Options) (*Report, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 2 * time.Minute
	}
	if opt.MaxReplays <= 0 {
		opt.MaxReplays = 50
	}
	if opt.Budget <= 0 {
		opt.Budget = 5 * time.Minute
	}
	if opt.Anomalies == nil {
		opt.Anomalies, _ = pattern.Builtin("all")
	}
	b, err := record.NewBuild(ctx, record.Options{Dir: opt.Dir, Patterns: opt.Patterns, BuildFlags: opt.BuildFlags, Drivers: opt.Drivers})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	rep := &Report{Notes: b.Notes}
	scratch, err := os.MkdirTemp("", "pecanvet-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	pkgs := make([]string, 0, len(b.Binaries))
	for p := range b.Binaries {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		if err := checkPackage(ctx, b, pkg, scratch, opt, rep); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func (o *Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

func checkPackage(ctx context.Context, b *record.Build, pkg, scratch string, opt Options, rep *Report) error {
	deadline := time.Now().Add(opt.Budget)
	tests, err := b.Tests(ctx, pkg, opt.Run)
	if err != nil {
		return err
	}
	if len(tests) == 0 {
		rep.Notes = append(rep.Notes, pkg+": no tests to run")
		return nil
	}
	seen := map[string]bool{} // one finding per site combination per package
	recs, err := newRecordAhead(ctx, b, pkg, tests, scratch, opt)
	if err != nil {
		return err
	}
	defer recs.stop()
	for ti, test := range tests {
		if time.Now().After(deadline) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: budget of %v spent; %d of %d tests not checked", pkg, opt.Budget, len(tests)-ti, len(tests)))
			return nil
		}
		dir := filepath.Join(scratch, fmt.Sprintf("t%d", ti))
		tracePath := recs.paths[ti]
		rt := recs.get(ti)
		rep.Tests++
		rep.Events += rt.Events
		if rt.TimedOut {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s %s: timed out after %v while recording; predicting from the partial trace", pkg, test, opt.Timeout))
		} else if !rt.Passed {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s %s: fails without pecanvet's help; predicting from its trace anyway", pkg, test))
		}
		if rt.Events == 0 {
			continue
		}
		tr, err := trace.ReadFile(tracePath, trace.ReadOptions{Lenient: true})
		if err != nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s %s: unreadable trace: %v", pkg, test, err))
			continue
		}
		// The search proposes, for each site combination, its instances
		// in order until one is confirmed; a combination already proved
		// (by an earlier test) is confirmed at once. The replays then run
		// in parallel (replayBatch), with the outcome of the sequential
		// order.
		var preds []prediction
		collect := func(a predict.Anomaly) bool {
			if seen[a.Key] {
				return true // already proved by an earlier test
			}
			s, err := trace.NewSchedule(tr, a.Pattern.ID(), a.Schedule.Events(), a.Events)
			if err != nil {
				rep.Notes = append(rep.Notes, fmt.Sprintf("%s %s: %v", pkg, test, err))
				return false
			}
			preds = append(preds, prediction{a: a, s: s})
			return false
		}
		if _, err := predict.Run(tr, opt.Anomalies, predict.Options{Confirm: collect}); err != nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s %s: %v", pkg, test, err))
			continue
		}
		skipped := replayBatch(ctx, b, pkg, test, tr, preds, dir, deadline, opt, seen, rep)
		if skipped > 0 {
			why := fmt.Sprintf("-max-replays %d", opt.MaxReplays)
			if time.Now().After(deadline) {
				why = fmt.Sprintf("budget of %v spent", opt.Budget)
			}
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s %s: %d predictions not replayed (%s)", pkg, test, skipped, why))
		}
	}
	return nil
}
