package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/predict/search"
)

const predictUsage = `usage: pecanvet predict [flags] TRACE

Predict the access anomalies (data races, atomicity violations, atomic-set-
serializability violations) that another feasible schedule of the recorded
run in TRACE would show, and print each with the schedule that exposes it.
TRACE is a text or binary trace ("-" reads standard input).

Exit status: 0 if nothing was predicted, 1 if anomalies were, 2 on error.

Flags:
`

func cmdPredict(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	patterns := fs.String("patterns", "all", "patterns: comma-separated built-in sets ("+strings.Join(pattern.BuiltinNames(), ", ")+"), pattern files, or inline pattern text")
	asJSON := fs.Bool("json", false, "print one JSON object per line per anomaly")
	maxTries := fs.Int("maxtries", 8, "candidate instances tried per site combination")
	maxEvents := fs.Int("maxevents", 50_000_000, "refuse traces with more events than this (memory: about 100 bytes per event)")
	verbose := fs.Bool("v", false, "also print statistics")
	schedDir := fs.String("schedules", "", "write each anomaly's schedule (bug hatching clip) to a file in this directory, for replay")
	window := fs.Int("window", 0, "stream the trace and predict over overlapping windows of this many events (memory bounded by the window, not the trace; anomalies spread over more than a quarter window may be missed)")
	predictAliases.register(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, predictUsage)
		predictAliases.printDefaults(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	pats, err := pattern.Resolve(*patterns)
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet predict: %v\n", err)
		return 2
	}
	path := fs.Arg(0)
	if *window > 0 {
		if *schedDir != "" {
			fmt.Fprintf(stderr, "pecanvet predict: -schedules needs the whole trace; it cannot be used with -window\n")
			return 2
		}
		return predictWindowed(path, pats, *window, *maxTries, *asJSON, *verbose, stdout, stderr)
	}
	tr, err := readTrace(path, *maxEvents)
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet predict: %v\n", err)
		return 2
	}
	res, err := predict.Run(tr, pats, predict.Options{Search: search.Options{MaxTries: *maxTries}})
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet predict: %s: %v\n", path, err)
		return 2
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "pecanvet predict: %s: warning: %s\n", path, w)
	}
	if tr.Truncated != "" {
		fmt.Fprintf(stderr, "pecanvet predict: %s: warning: the trace is truncated (%s); predictions cover the recorded part\n", path, tr.Truncated)
	}
	if *schedDir != "" {
		if err := writeSchedules(*schedDir, tr, res); err != nil {
			fmt.Fprintf(stderr, "pecanvet predict: %v\n", err)
			return 2
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, a := range res.Anomalies {
			if err := enc.Encode(jsonAnomaly(a)); err != nil {
				fmt.Fprintf(stderr, "pecanvet predict: %v\n", err)
				return 2
			}
		}
	} else {
		printHuman(stdout, path, tr, res)
	}
	if *verbose {
		st := res.Stats
		fmt.Fprintf(stderr, "pecanvet predict: %s: %d events, %d goroutines; build %v, search %v, schedules %v (%d tried, %d infeasible)\n",
			path, st.Events, st.Goroutines, st.Build.Round(time.Microsecond), st.Search.Round(time.Microsecond),
			st.Schedule.Round(time.Microsecond), st.Schedules, st.Infeasible)
	}
	if len(res.Anomalies) > 0 {
		return 1
	}
	return 0
}

// readTrace reads a whole trace, refusing (without reading it all) one with
// more than max events.
func readTrace(path string, max int) (*trace.Trace, error) {
	opt := trace.ReadOptions{MaxEvents: max}
	tr, err := func() (*trace.Trace, error) {
		if path == "-" {
			return trace.ReadTrace(os.Stdin, "<stdin>", opt)
		}
		return trace.ReadFile(path, opt)
	}()
	if errors.Is(err, trace.ErrTooManyEvents) {
		return nil, fmt.Errorf("%v; raise -maxevents if this machine has the memory (about 150 bytes per event)", err)
	}
	return tr, err
}

type jsonOut struct {
	Kind     string   `json:"kind"`
	Pattern  string   `json:"pattern"`
	Events   []int32  `json:"events"`
	Sites    []string `json:"sites"`
	Schedule []int32  `json:"schedule"`
	Unsound  string   `json:"unsound,omitempty"`
}

func jsonAnomaly(a predict.Anomaly) jsonOut {
	return jsonOut{
		Kind:     a.Pattern.Kind,
		Pattern:  a.Pattern.Name,
		Events:   plus1(a.Events),
		Sites:    a.Sites,
		Schedule: plus1(a.Schedule.Events()),
		Unsound:  a.Unsound,
	}
}

func plus1(s []int32) []int32 {
	out := make([]int32, len(s))
	for i, e := range s {
		out[i] = e + 1
	}
	return out
}

func printHuman(w io.Writer, path string, tr *trace.Trace, res *predict.Result) {
	if len(res.Anomalies) == 0 {
		fmt.Fprintf(w, "%s: no anomalies predicted (%d events, %d goroutines)\n", path, res.Stats.Events, res.Stats.Goroutines)
		return
	}
	counts := map[string]int{}
	var kinds []string
	for _, a := range res.Anomalies {
		if counts[a.Pattern.Kind] == 0 {
			kinds = append(kinds, a.Pattern.Kind)
		}
		counts[a.Pattern.Kind]++
	}
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s: %d", k, counts[k]))
	}
	fmt.Fprintf(w, "%s: %d anomalies predicted (%s) from %d events, %d goroutines\n",
		path, len(res.Anomalies), strings.Join(parts, ", "), res.Stats.Events, res.Stats.Goroutines)
	for i, a := range res.Anomalies {
		kind := pattern.KindName(a.Pattern.Kind)
		fmt.Fprintf(w, "\n%d. %s (%s) on %s\n", i+1, kind, a.Pattern.ID(), objectsOf(tr, a.Events))
		for k, e := range a.Events {
			ev := tr.Events[e]
			fmt.Fprintf(w, "   %s %s %s %s at %s (event %d)\n", arrow(k), tr.Goroutines[ev.G], ev.Op, tr.ObjName(ev), siteOr(tr.Site(ev)), e+1)
		}
		if a.Unsound != "" {
			fmt.Fprintf(w, "   note: lock %s is used in a non-nested way; this schedule is not guaranteed feasible\n", a.Unsound)
		}
		fmt.Fprintf(w, "   schedule (%d steps):\n", a.Schedule.Len())
		printSchedule(w, tr, a)
	}
}

func arrow(k int) string {
	if k == 0 {
		return " "
	}
	return "→"
}

func siteOr(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func objectsOf(tr *trace.Trace, evs []int32) string {
	var names []string
	seen := map[string]bool{}
	for _, e := range evs {
		n := tr.ObjName(tr.Events[e])
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// printSchedule prints the steps, collapsing long runs of one goroutine.
func printSchedule(w io.Writer, tr *trace.Trace, a predict.Anomaly) {
	mark := map[int32]int{}
	for k, e := range a.Events {
		mark[e] = k + 1
	}
	s := a.Schedule.Events()
	step := func(i int) {
		e := s[i]
		ev := tr.Events[e]
		m := ""
		if k := mark[e]; k > 0 {
			m = fmt.Sprintf("   ← e%d", k)
		}
		fmt.Fprintf(w, "   %5d  %-6s %-12s %-16s %s%s\n", i+1, tr.Goroutines[ev.G], ev.Op, tr.ObjName(ev), siteOr(tr.Site(ev)), m)
	}
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && tr.Events[s[j+1]].G == tr.Events[s[i]].G {
			j++
		}
		run := j - i + 1
		if run > 6 {
			// Keep marked steps visible: collapse only the unmarked middle.
			step(i)
			step(i + 1)
			hidden := 0
			for k := i + 2; k <= j-2; k++ {
				if mark[s[k]] > 0 {
					if hidden > 0 {
						fmt.Fprintf(w, "          … %d more steps of %s\n", hidden, tr.Goroutines[tr.Events[s[i]].G])
						hidden = 0
					}
					step(k)
				} else {
					hidden++
				}
			}
			if hidden > 0 {
				fmt.Fprintf(w, "          … %d more steps of %s\n", hidden, tr.Goroutines[tr.Events[s[i]].G])
			}
			step(j - 1)
			step(j)
		} else {
			for k := i; k <= j; k++ {
				step(k)
			}
		}
		i = j + 1
	}
}

// writeSchedules writes one schedule file per anomaly into dir, named by
// its number and pattern; each file is written whole or not at all.
func writeSchedules(dir string, tr *trace.Trace, res *predict.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, a := range res.Anomalies {
		s, err := trace.NewSchedule(tr, a.Pattern.ID(), a.Schedule.Events(), a.Events)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("%03d-%s-%s.sched", i+1, a.Pattern.Kind, a.Pattern.Name)
		if err := writeFileAtomic(filepath.Join(dir, name), func(w io.Writer) error {
			_, err := s.WriteTo(w)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}
