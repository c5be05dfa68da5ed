package pecan

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/pecanvet/pecanvet/check"
)

// statsFile is the -stats flag: evaluations (internal/eval) need to know,
// per package, what the dynamic loop checked and what it skipped, which the
// diagnostics alone do not say. Being a flag, it is part of go vet's cache
// key, so a run with a fresh file is never answered from go vet's cache.
var statsFile string

// Stats is one line of the -stats file: what the analyzer did with one
// package (one vet unit).
type Stats struct {
	Package      string   `json:"package"`
	Dir          string   `json:"dir,omitempty"`
	Dynamic      bool     `json:"dynamic"`           // the dynamic loop ran
	Skipped      string   `json:"skipped,omitempty"` // why it did not run, or failed
	TestsListed  int      `json:"tests_listed"`      // tests found in the package
	TestsChecked int      `json:"tests_checked"`     // of them, recorded and predicted
	Reproduced   int      `json:"reproduced"`        // reproduced findings, before grouping into diagnostics
	Notes        []string `json:"notes,omitempty"`
	// Checked names the tests checked, in order (check.Report.Checked),
	// and Work the work units charged to the budget (check.Report.Work):
	// with the same input, the same whatever the load.
	Checked []string `json:"checked,omitempty"`
	Work    int64    `json:"work,omitempty"`
	// Seconds spent, summed over processes (see check.Timing).
	Wall    float64 `json:"wall_s,omitempty"`
	Build   float64 `json:"build_s,omitempty"`
	Record  float64 `json:"record_s,omitempty"`
	Predict float64 `json:"predict_s,omitempty"`
	Replay  float64 `json:"replay_s,omitempty"`
	Records int     `json:"records,omitempty"`
	Replays int     `json:"replays,omitempty"`
	// Build's parts (check.Timing): loading the packages (a go list and
	// type-checking), generating drivers, instrumenting, go test -c.
	Load       float64 `json:"load_s,omitempty"`
	Drivers    float64 `json:"drivers_s,omitempty"`
	Instrument float64 `json:"instrument_s,omitempty"`
	Compile    float64 `json:"compile_s,omitempty"`
	// Candidates the lock filter rejected before scheduling (check.FilterLocks).
	LockRejected int `json:"lock_rejected,omitempty"`
	// Doomed: predictions not replayed because an earlier replay of their
	// trace deadlocked where they would (check.Report.Doomed).
	Doomed int `json:"doomed,omitempty"`
	// Alike: predictions not replayed because earlier instances of their
	// site combination deadlocked or touched other objects alike
	// (check.Report.Alike).
	Alike int `json:"alike,omitempty"`
	// Folded: goroutine assignments the search folded by symmetry
	// (check.Report.Folded).
	Folded int `json:"folded,omitempty"`
	// The generated drivers (check.Report.DriversGenerated, .Drivers):
	// how many were generated, how many of them were recorded and ran,
	// and why each recorded one that skipped itself did (one line each).
	DriversGenerated int      `json:"drivers_generated,omitempty"`
	DriversRun       int      `json:"drivers_run,omitempty"`
	DriverSkips      []string `json:"driver_skips,omitempty"`
	// MaxRSS is the peak resident set, in bytes, of the vet tool's own
	// process for this unit when the line was written (getrusage): go
	// vet's tree mixes it with the compilers of other units and with the
	// test binaries, whose memory is the tests' own (bigcache's take 2 GB
	// under -race too). (A child's peak is no measure of the child: Linux
	// counts in it the parent's resident set when it was started.)
	MaxRSS int64 `json:"max_rss,omitempty"`
	// End is when the line was written, in Unix seconds: with Wall, the
	// span the check ran, so that an evaluation can tell the time no check
	// ran (go vet's own work) from the checks' time when go vet runs them
	// in parallel, where summing their walls hides it.
	End float64 `json:"end_unix,omitempty"`
}

// writeStats appends res as one JSON line to the -stats file, if set. Units
// analyzed only for facts (SkipDynamic) are dependencies, not packages the
// user asked about, and get no line.
func writeStats(pass *analysis.Pass, res *Result) {
	if statsFile == "" || SkipDynamic {
		return
	}
	st := Stats{Package: pass.Pkg.Path(), Dynamic: res.Dynamic, Skipped: res.Skipped, Notes: res.Notes}
	if len(pass.Files) > 0 {
		st.Dir = dirOf(pass)
	}
	if r := res.Report; r != nil {
		st.TestsListed, st.TestsChecked = r.Listed, r.Tests
		st.Checked, st.Work = r.Checked, r.Work
		st.Reproduced = len(r.Reproduced())
		t := r.Time
		st.Wall, st.Build, st.Record, st.Predict, st.Replay = t.Wall.Seconds(), t.Build.Seconds(), t.Record.Seconds(), t.Predict.Seconds(), t.Replay.Seconds()
		st.Load, st.Drivers, st.Instrument, st.Compile = t.Load.Seconds(), t.Drivers.Seconds(), t.Instrument.Seconds(), t.Compile.Seconds()
		st.Records, st.Replays = t.Records, t.Replays
		if c := r.Filtered[check.FilterLocks]; c != nil {
			st.LockRejected = c.Candidates
		}
		st.Doomed = r.Doomed
		st.Alike = r.Alike
		st.Folded = r.Folded
		st.DriversGenerated = r.DriversGenerated
		for _, d := range r.Drivers {
			if d.Skipped == "" {
				st.DriversRun++
			} else {
				st.DriverSkips = append(st.DriverSkips, d.Skipped)
			}
		}
	}
	st.MaxRSS = peakRSS()
	st.End = float64(time.Now().UnixMilli()) / 1000
	b, err := json.Marshal(st)
	if err != nil {
		return
	}
	// One write per line, with O_APPEND: go vet runs units in parallel
	// processes, and each line must land whole.
	f, err := os.OpenFile(statsFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pecanvet: -stats: %v\n", err)
		return
	}
	defer f.Close()
	if _, err := f.Write(append(b, '\n')); err != nil {
		fmt.Fprintf(os.Stderr, "pecanvet: -stats: %v\n", err)
	}
}

func dirOf(pass *analysis.Pass) string {
	return filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name())
}
