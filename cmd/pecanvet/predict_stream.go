package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/predict/search"
)

// predictWindowed is `pecanvet predict -window N`: the trace is streamed and
// predicted window by window (predict.RunStream), so that its size is not
// bounded by memory. Anomalies are printed with their sites and global
// event numbers; schedules (whole-trace, prefix implicit) only in -json.
func predictWindowed(path string, pats []*pattern.Pattern, window, maxTries int, asJSON, verbose bool, stdout, stderr io.Writer) int {
	var in io.Reader = os.Stdin
	name := "<stdin>"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintf(stderr, "pecanvet predict: %v\n", err)
			return 2
		}
		defer f.Close()
		in, name = f, path
	}
	dec, err := trace.NewDecoder(in, name)
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet predict: %v\n", err)
		return 2
	}
	res, err := predict.RunStream(dec, pats, predict.Options{Search: search.Options{MaxTries: maxTries}}, predict.WindowOptions{Size: window})
	if err != nil {
		fmt.Fprintf(stderr, "pecanvet predict: %s: %v\n", path, err)
		return 2
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "pecanvet predict: %s: warning: %s\n", path, w)
	}
	if res.Truncated != "" {
		fmt.Fprintf(stderr, "pecanvet predict: %s: warning: the trace is truncated (%s); predictions cover the recorded part\n", path, res.Truncated)
	}
	if res.Cut != "" {
		fmt.Fprintf(stderr, "pecanvet predict: %s: warning: %s\n", path, res.Cut)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		for _, a := range res.Anomalies {
			if err := enc.Encode(jsonAnomaly(a)); err != nil {
				fmt.Fprintf(stderr, "pecanvet predict: %v\n", err)
				return 2
			}
		}
	} else {
		fmt.Fprintf(stdout, "%s: %d anomalies predicted from %d events, %d goroutines, in %d windows\n",
			path, len(res.Anomalies), res.Stats.Events, res.Stats.Goroutines, res.Windows)
		for i, a := range res.Anomalies {
			var evs []string
			for k, e := range a.Events {
				evs = append(evs, fmt.Sprintf("%s at %s (event %d)", a.Pattern.AT[k], siteOr(a.Sites[k]), e+1))
			}
			fmt.Fprintf(stdout, "%d. %s (%s): %s; schedule of %d steps\n", i+1, pattern.KindName(a.Pattern.Kind), a.Pattern.ID(), strings.Join(evs, " → "), a.Schedule.Len())
		}
	}
	if verbose {
		st := res.Stats
		fmt.Fprintf(stderr, "pecanvet predict: %s: %d events in %d windows; build %v, search %v, schedules %v (%d tried, %d infeasible)\n",
			path, st.Events, res.Windows, st.Build, st.Search, st.Schedule, st.Schedules, st.Infeasible)
	}
	if len(res.Anomalies) > 0 {
		return 1
	}
	return 0
}
