package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/report"
)

const checkUsage = `usage: pecanvet check [-run REGEXP] [-json | -sarif[=FILE]] [-patterns P] [-v] [-candidates] [packages]

Run the whole dynamic loop: record each test of the packages, predict the
anomalies another schedule would show, replay each prediction's schedule
deterministically, and print only those that were reproduced — each with
its bug hatching clip and, first, what it did to the program (a panic, a
failed test). Exit status: 0 nothing reproduced, 1 anomalies reproduced,
2 error.

-sarif prints the reproduced anomalies as SARIF 2.1.0 (for code scanning)
on standard output instead of the text; -sarif=FILE writes them to FILE,
whole or not at all, and prints the text as usual. URIs in it are relative
to -srcroot (default: the root of the git repository holding the module,
else the module's root).

-candidates also lists the static candidates (what the editor analyzer
reports) with what the dynamic loop made of each: confirmed, pruned (and
why), not reached (no test or generated driver ran both sides in two
goroutines) or not driven (no driver could be generated for it). That is
what pecanvet's silence covers. With -json, one {"candidate": …} object
per line follows the findings.

-driversdir DIR writes the generated test drivers out (one file per
package, zz_pecanvet_driver_test.go under the package's path): each calls
two methods of a type from two goroutines, on a receiver set up by the
code of the package's test it names, and fails when they leave a state
that neither order of the two calls leaves. Copy one next to the package
to keep it as a test.

Flags:
`

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	run := fs.String("run", "", "check only the tests matching this regexp")
	asJSON := fs.Bool("json", false, "print one JSON object per line per reproduced anomaly")
	var sarifOut sarifFlag
	fs.Var(&sarifOut, "sarif", "print SARIF 2.1.0 on standard output (-sarif) or write it to a file (-sarif=FILE)")
	srcRoot := fs.String("srcroot", "", "the directory SARIF URIs are relative to (%SRCROOT%); default: the repository root")
	patterns := fs.String("patterns", "all", "anomaly patterns (see pecanvet predict -h)")
	verbose := fs.Bool("v", false, "also print the interleavings without effect (reproduced, but no effect and no dependence), the findings of a bug already reported, and the predictions replay pruned, with their verdicts")
	timeout := fs.Duration("timeout", record.DefaultTimeout, "time bound for recording one test")
	replayTimeout := fs.Duration("replaytimeout", replay.DefaultTimeout, "time bound for one replay")
	stall := fs.Duration("stall", replay.DefaultStall, "a replay in which code outside recorded operations runs this long without progress is a deadlock (when every goroutine waits, replay decides at once)")
	maxReplays := fs.Int("maxreplays", 100, "replays per test at most")
	budget := fs.Duration("budget", 5*time.Minute, "budget per package, counted in work units: the work that takes this long on an idle 2-core machine, whatever the load (a wall-clock safety net stops at 10x it, at least 30m)")
	alone := fs.Bool("alone", false, "record each test in a process of its own (by default a package's test functions are recorded in one process, each with a trace of its own; use this when tests depend on running alone)")
	perturb := fs.Int("perturb", 1, "when a test's first run proves nothing and two of its goroutines did something, record it this many more times under perturbed schedules (fixed seeds) and predict from each run; 0: only the first run")
	short := fs.Bool("short", false, "run the tests with -test.short, as go test -short: for suites whose long tests skip themselves under testing.Short()")
	quiet := fs.Bool("q", false, "no progress lines on standard error")
	drivers := fs.Bool("drivers", true, "generate test drivers (two goroutines calling two methods of a type): for the static candidates no test reaches, and for packages without tests")
	filters := fs.Bool("filters", true, "before replaying, drop predictions no lock-valid execution realizes (false: to measure what that saves)")
	driversDir := fs.String("driversdir", "", "write the generated test drivers into this directory, one file per package under its directory's path, to read and keep (needs -drivers)")
	listCands := fs.Bool("candidates", false, "also list the static candidates with their status: confirmed, pruned, not reached, not driven (needs -drivers)")
	rankReads := fs.Bool("rankreads", false, "replay first the instances of a site combination whose schedules change the fewest reads (AVFilter's criterion; measured worse than the search's order)")
	keepTraces := fs.String("keeptraces", "", "keep each test's first recorded trace in this directory, as DIR/PACKAGE/TEST.trace (for pecanvet predict and trace)")
	controls := fs.Bool("controls", true, "replay an effect-only atomicity violation's schedule under control (serialized both ways, then again) and drop the effect when the failure is not the interleaving's; false: to measure what that changes")
	checkAliases.register(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, checkUsage)
		checkAliases.printDefaults(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	pats, err := pattern.Resolve(*patterns)
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet check: %v\n", err)
		return 2
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet check: %v\n", err)
		return 2
	}
	if sarifOut.set && sarifOut.path == "" && *asJSON {
		fmt.Fprintln(stderr, "pecanvet check: -json and -sarif both want standard output; write SARIF to a file with -sarif=FILE")
		return 2
	}
	pkgs := fs.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	opt := check.Options{
		Dir: dir, Patterns: pkgs, Run: *run, Anomalies: pats, Timeout: *timeout,
		Replay:     replay.Options{Timeout: *replayTimeout, Stall: *stall},
		MaxReplays: *maxReplays, Budget: *budget, Drivers: *drivers, DriversDir: *driversDir, Alone: *alone, Perturb: perturbRuns(*perturb),
		NoFilters: !*filters, RankReadsFrom: *rankReads, NoControls: !*controls,
		KeepTraces: *keepTraces, Short: *short,
	}
	if !*quiet {
		opt.Progress = stderr
	}
	// An interrupt stops the work (and the test processes) and still
	// removes the temporary files (onInterrupt).
	ctx, stop := onInterrupt("pecanvet check", stderr, interruptGrace)
	defer stop()
	rep, err := check.Run(ctx, opt)
	if ctx.Err() != nil {
		// What was replayed before the interrupt is a part of the
		// answer that depends on when it came: report none of it.
		fmt.Fprintf(stderr, "pecanvet check: %v: the check did not finish, so nothing is reported\n", context.Cause(ctx))
		return 2
	}
	if rep != nil {
		for _, n := range rep.Notes {
			fmt.Fprintf(stderr, "pecanvet check: note: %s\n", n)
		}
		if !*quiet {
			fmt.Fprintf(stderr, "pecanvet check: %s\n", rep.Time)
		}
		if *verbose {
			printFiltered(stderr, rep)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet check: %v\n", err)
		return 2
	}
	found := rep.Reported()
	if sarifOut.set {
		if err := writeSARIF(rep, pats, dir, *srcRoot, sarifOut.path, stdout); err != nil {
			fmt.Fprintf(stderr, "pecanvet check: %v\n", err)
			return 2
		}
		if sarifOut.path == "" {
			fmt.Fprintf(stderr, "pecanvet check: %d tests, %d events recorded, %d predictions replayed, %d reproduced\n",
				rep.Tests, rep.Events, len(rep.Findings)-rep.Inferred(), len(found))
			if len(found) > 0 {
				return 1
			}
			return 0
		}
	}
	if *listCands && !*drivers {
		fmt.Fprintln(stderr, "pecanvet check: note: -candidates lists nothing with -drivers=false (the candidates are computed with the drivers)")
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, f := range rep.Findings {
			if f.Reproduced() && !f.WithoutEffect() && f.Lead == "" || *verbose {
				enc.Encode(checkJSON(f))
			}
		}
		if *listCands {
			for _, c := range rep.Candidates {
				enc.Encode(struct {
					C candJSON `json:"candidate"`
				}{candJSON{Package: c.Package, Pattern: c.ID, Site: c.Site, Contexts: c.Contexts, Driver: c.Driver, Status: c.Status, Why: c.Why, ReachedBy: c.Reachers}})
			}
		}
	} else {
		for _, f := range found {
			printFinding(stdout, f)
		}
		if *verbose {
			for _, f := range rep.Findings {
				if f.WithoutEffect() || f.Reproduced() && f.Lead != "" {
					printFinding(stdout, f)
				}
			}
			for _, f := range rep.Findings {
				if !f.Reproduced() {
					printPruned(stdout, f)
				}
			}
		}
		fmt.Fprintf(stdout, "pecanvet check: %d tests, %d events recorded, %d predictions replayed, %d reproduced",
			rep.Tests, rep.Events, len(rep.Findings)-rep.Inferred(), len(found))
		if n := rep.Inferred(); n > 0 {
			fmt.Fprintf(stdout, " (%d more pruned without a replay: an earlier replay of the same trace failed within the steps they begin with%s)", n, map[bool]string{false: ", shown with -v", true: ""}[*verbose])
		}
		grouped := 0
		for _, f := range rep.Findings {
			if f.Reproduced() && !f.WithoutEffect() && f.Lead != "" {
				grouped++
			}
		}
		if grouped > 0 {
			fmt.Fprintf(stdout, " (%d more showing the same bugs%s)", grouped, map[bool]string{false: ", shown with -v", true: ""}[*verbose])
		}
		if n := len(rep.Reproduced()) - len(found) - grouped; n > 0 {
			fmt.Fprintf(stdout, " (and %d without effect%s)", n, map[bool]string{false: ", shown with -v", true: ""}[*verbose])
		}
		fmt.Fprintln(stdout)
		if *listCands {
			printCandidates(stdout, rep.Candidates, rep.Drivers, rep.DriversGenerated)
		}
	}
	if len(found) > 0 {
		return 1
	}
	return 0
}

func printFinding(w io.Writer, f check.Finding) {
	fmt.Fprintf(w, "%s: %s\n", siteOr(report.Site(f).String()), report.Headline(f))
	if d := report.Detail(f); d != "" {
		fmt.Fprintf(w, "   %s\n", d)
	}
	for _, e := range report.Events(f) {
		fmt.Fprintf(w, "   e%d %s at %s\n", e.Event, e.Action(), siteOr(e.Site.String()))
	}
	if r := f.Schedule.Ran; r > 0 && r < len(f.Schedule.Steps) {
		fmt.Fprintf(w, "   test %s %s; clip (%d of %d steps, then the program ran free):\n", f.Package, f.Test, r, len(f.Schedule.Steps))
	} else {
		fmt.Fprintf(w, "   test %s %s; clip (%d steps):\n", f.Package, f.Test, len(f.Schedule.Steps))
	}
	for _, l := range replay.Clip(f.Schedule) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
}

func printPruned(w io.Writer, f check.Finding) {
	fmt.Fprintf(w, "pruned: %s: %s — %s [%s %s]\n", siteOr(f.Anomaly.Sites[0]), report.Detailed(f), report.Pruned(f), f.Package, f.Test)
}

type checkOut struct {
	Kind        string   `json:"kind"`
	Pattern     string   `json:"pattern"`
	Verdict     string   `json:"verdict"`
	Sites       []string `json:"sites"`
	Goroutines  []string `json:"goroutines"`
	Schedule    []string `json:"schedule"`
	Consequence string   `json:"consequence,omitempty"`
	Test        string   `json:"test"`
	Package     string   `json:"package"`
	Message     string   `json:"message,omitempty"`
	// Driver: found by a generated driver calling these methods
	// concurrently ("Withdraw and Withdraw"); Test is the driver's name.
	Driver string `json:"driver,omitempty"`
	// WithoutEffect: reproduced, but with neither an effect nor a
	// dependence (or across a re-check under a lock, Split naming the
	// acquire); listed only with -v.
	WithoutEffect bool   `json:"without_effect,omitempty"`
	Split         string `json:"split,omitempty"`
	// Dependence: how the interleaving changes a value the unit uses
	// ("check-then-act: …"), when that is why it is reported.
	Dependence string `json:"dependence,omitempty"`
	// Lead: the first site of the finding reported for the same bug;
	// this one is listed only with -v.
	Lead string `json:"lead,omitempty"`
	// Grouped: for a lead, how many findings name it as their lead (the
	// other interleavings of its bug, listed with -v).
	Grouped int `json:"grouped,omitempty"`
}

func checkJSON(f check.Finding) checkOut {
	o := checkOut{
		Kind: f.Anomaly.Pattern.Kind, Pattern: f.Anomaly.Pattern.Name, Verdict: f.Verdict.Verdict,
		Sites: f.Anomaly.Sites, Goroutines: f.Goroutines, Consequence: f.Verdict.Consequence,
		Test: f.Test, Package: f.Package, Driver: f.Driver,
		WithoutEffect: f.WithoutEffect(), Split: f.Anomaly.Split,
		Dependence: f.Dependence, Lead: f.Lead, Grouped: f.Grouped,
	}
	if !f.Reproduced() || f.Verdict.RaceDetector {
		o.Message = f.Verdict.Message
	}
	for _, st := range f.Schedule.Steps {
		s := st.G + " " + st.Op.String()
		if st.Obj != "" {
			s += " " + st.Obj
		}
		if st.Site != "" {
			s += " " + st.Site
		}
		o.Schedule = append(o.Schedule, s)
	}
	return o
}

// printFiltered says what each filter between prediction and replay saved.
func printFiltered(w io.Writer, rep *check.Report) {
	if rep.Folded > 0 {
		fmt.Fprintf(w, "pecanvet check: symmetry: %d goroutine assignments folded (goroutines started at the same sites: one representative searched per combination of access sites and start sites)\n", rep.Folded)
	}
	// Alike and doomed predictions are pruned, each for a reason the line
	// names, not left unchecked (issue 30): the words say so.
	if rep.Alike > 0 {
		fmt.Fprintf(w, "pecanvet check: %d predictions pruned without a replay: %d earlier instances of their site combination in the same trace deadlocked alike (the same stuck step, the same waits outside recorded operations) or touched other objects than predicted alike (the same two steps, by operation and site)\n", rep.Alike, check.AlikeRuns)
	}
	if rep.Reordered > 0 {
		fmt.Fprintf(w, "pecanvet check: %d of the predictions pruned for an earlier replay's failure begin with the failed replay's steps in another order: the same steps, every two that touch one object (but two reads) or belong to one goroutine in the same order, so the replay runs alike to the failure\n", rep.Reordered)
	}
	if rep.Doomed > 0 {
		fmt.Fprintf(w, "pecanvet check: %d predictions pruned without a replay: an earlier replay of the same trace deadlocked where they would (a goroutine waiting outside recorded operations, with at least the steps they would run before it run)\n", rep.Doomed)
	}
	for _, name := range []string{check.FilterLocks, check.FilterReadsFrom} {
		if c := rep.Filtered[name]; c != nil {
			fmt.Fprintf(w, "pecanvet check: filter %s: %d candidates rejected before scheduling, %d predictions moved ahead, %d replays saved (about %.1fs)\n",
				name, c.Candidates, c.Moved, c.Replays, c.Seconds)
		}
	}
}

// perturbRuns maps -perturb to check.Options.Perturb, whose zero means
// the default.
func perturbRuns(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

type candJSON struct {
	Package  string `json:"package"`
	Pattern  string `json:"pattern"`
	Site     string `json:"site"`
	Contexts string `json:"contexts"`
	Driver   string `json:"driver,omitempty"`
	Status   string `json:"status"`
	Why      string `json:"why"`
	// ReachedBy: the tests whose call graph reaches both sides (absent
	// when no call graph was built).
	ReachedBy []string `json:"reached_by,omitempty"`
}

// printCandidates lists the static candidates by package, with a count of
// each status, then the generated drivers that skipped, each with why,
// and a count of those run and skipped.
func printCandidates(w io.Writer, cands []check.CandidateStatus, drivers []check.DriverRun, generated int) {
	defer func() {
		skipped := 0
		for _, d := range drivers {
			if d.Skipped != "" {
				if skipped == 0 {
					fmt.Fprintln(w, "generated drivers skipped:")
				}
				skipped++
				fmt.Fprintf(w, "  %s %s (%s) — %s\n", d.Package, d.Test, d.Calls, d.Skipped)
			}
		}
		if len(drivers) > 0 || generated > 0 {
			fmt.Fprintf(w, "pecanvet check: %d generated drivers recorded: %d ran, %d skipped (of %d generated; the others' candidates were held in two goroutines by the tests)\n", len(drivers), len(drivers)-skipped, skipped, generated)
		}
	}()
	count := map[string]int{}
	pkg := ""
	for _, c := range cands {
		if c.Package != pkg {
			pkg = c.Package
			fmt.Fprintf(w, "candidates of %s:\n", pkg)
		}
		count[c.Status]++
		fmt.Fprintf(w, "  %-11s %-8s %s  %s — %s\n", c.Status, c.ID, siteOr(c.Site), c.Contexts, c.Why)
	}
	if len(cands) > 0 {
		fmt.Fprintf(w, "pecanvet check: %d static candidates: %d confirmed, %d pruned, %d not reached, %d not driven\n",
			len(cands), count["confirmed"], count["pruned"], count["not reached"], count["not driven"])
	}
}
