package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The candidates section: what the dynamic loop made of each
// static candidate of the corpus (pecanvet check -candidates), and the
// static analyzers' time beside go vet's own suite on the same packages.

// candStatuses are the statuses check -candidates gives, in table order.
var candStatuses = []string{"confirmed", "pruned", "not reached", "not driven"}

// candCounts counts one subject's candidates by status.
type candCounts map[string]int

// candReports counts, in a subject's candCounts, the findings check
// reports (its {"kind": …} lines), beside the candidates' statuses.
const candReports = "reports"

// candLine is one line of check -json -candidates: a candidate, or a
// reported finding.
type candLine struct {
	Candidate *struct {
		Package string `json:"package"`
		Status  string `json:"status"`
	} `json:"candidate"`
	Kind    string `json:"kind"`
	Package string `json:"package"`
}

// parseCandidates counts the candidates of check -json -candidates output
// by subject (the package path's last element) and status, and the
// reported findings under candReports.
func parseCandidates(out []byte) map[string]candCounts {
	by := map[string]candCounts{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var l candLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		name, key := l.Package, candReports
		switch {
		case l.Candidate != nil:
			name, key = l.Candidate.Package, l.Candidate.Status
		case l.Kind == "" || l.Package == "":
			continue
		}
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		if by[name] == nil {
			by[name] = candCounts{}
		}
		by[name][key]++
	}
	return by
}

// unconfirmed counts c's candidates not confirmed.
func unconfirmed(c candCounts) int {
	return c["pruned"] + c["not reached"] + c["not driven"]
}

// precision is issue 11's measure (its bound kept by issue 27): on the
// buggy subjects at most one unconfirmed candidate per confirmed one, on
// the fixed twins no report. It says whether each holds, and which
// subjects break it: the buggy ones with more unconfirmed candidates
// than confirmed (most over first), the fixed twins that report.
func precision(by map[string]candCounts, names []string, tot map[bool]candCounts) string {
	var b strings.Builder
	buggy := tot[false]
	ratio := "no confirmed candidate"
	held := false
	if buggy["confirmed"] > 0 {
		r := float64(unconfirmed(buggy)) / float64(buggy["confirmed"])
		ratio = fmt.Sprintf("%d unconfirmed / %d confirmed = %.2f", unconfirmed(buggy), buggy["confirmed"], r)
		held = r <= 1
	}
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	fmt.Fprintf(&b, "Precision (issue 11's measure): on the buggy subjects **%s** unconfirmed per confirmed candidate (target at most 1: %s); on the fixed twins **%d reports** (target 0: %s).\n",
		ratio, verdict(held), tot[true][candReports], verdict(tot[true][candReports] == 0))
	type over struct {
		name   string
		excess int
	}
	var overs []over
	var reporting []string
	for _, n := range names {
		c := by[n]
		if strings.HasSuffix(n, "fixed") {
			if c[candReports] > 0 {
				reporting = append(reporting, fmt.Sprintf("%s (%d)", n, c[candReports]))
			}
			continue
		}
		if e := unconfirmed(c) - c["confirmed"]; e > 0 {
			overs = append(overs, over{n, e})
		}
	}
	sort.SliceStable(overs, func(i, j int) bool { return overs[i].excess > overs[j].excess })
	if len(overs) > 0 {
		var parts []string
		for _, o := range overs {
			c := by[o.name]
			parts = append(parts, fmt.Sprintf("%s %d/%d", o.name, unconfirmed(c), c["confirmed"]))
		}
		fmt.Fprintf(&b, "\nBuggy subjects with more unconfirmed candidates than confirmed (unconfirmed/confirmed), most over first: %s.\n", strings.Join(parts, ", "))
	}
	if len(reporting) > 0 {
		fmt.Fprintf(&b, "\nFixed twins that report (reports): %s.\n", strings.Join(reporting, ", "))
	}
	return b.String()
}

// renderCandidates is the section's text: totals for the buggy subjects
// and the fixed twins, the unconfirmed candidates per confirmed one, the
// static analyzers' time against go vet's, and the per-subject table.
func renderCandidates(by map[string]candCounts, vetStd, vetStatic time.Duration, runs int, notes []string) string {
	var b strings.Builder
	b.WriteString("## Static candidates and what the dynamic loop made of them\n\n")
	b.WriteString("Every static candidate of the corpus (what the editor analyzer reports), from `pecanvet check -json -candidates ./...` at default settings in a copy of testdata/src: **confirmed** (a reported finding has a site on each of its sides), **pruned** (the runs held both sides in two goroutines and prediction or replay ruled every instance out), **not reached** (no run of a test or of its generated driver held both sides in two goroutines), **not driven** (not reached, and no driver could be generated).\n\n")
	var names []string
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	tot := map[bool]candCounts{false: {}, true: {}}
	for _, n := range names {
		fixed := strings.HasSuffix(n, "fixed")
		for s, k := range by[n] {
			tot[fixed][s] += k
		}
	}
	b.WriteString("| subjects | confirmed | pruned | not reached | not driven | unconfirmed per confirmed |\n|---|--:|--:|--:|--:|--:|\n")
	for _, fixed := range []bool{false, true} {
		label := "buggy"
		if fixed {
			label = "fixed twins"
		}
		c := tot[fixed]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s |\n", label, c["confirmed"], c["pruned"], c["not reached"], c["not driven"], perConfirmed(c))
	}
	all := candCounts{}
	for _, c := range tot {
		for s, k := range c {
			all[s] += k
		}
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d | %d | %s |\n", all["confirmed"], all["pruned"], all["not reached"], all["not driven"], perConfirmed(all))
	b.WriteString("\nOn a fixed twin every candidate is unconfirmed by design.\n\n")
	b.WriteString(precision(by, names, tot) + "\n")
	if vetStd > 0 && vetStatic > 0 {
		fmt.Fprintf(&b, "Speed of the static analyzers (`go vet -vettool=pecanvet -pecan.replay=false ./...`, what editors and golangci-lint run) beside go vet's own suite (`go vet ./...`) on the whole subjects module, median of %d runs each, side by side, a vet flag changed each run so that no result comes from go vet's cache (the dependencies' facts are recomputed by both): **%.1f s against %.1f s, %.2fx** (target 1.5x). `make bench` prints the same (`BENCH static-vs-vet`).\n\n",
			runs, vetStatic.Seconds(), vetStd.Seconds(), vetStatic.Seconds()/vetStd.Seconds())
	}
	b.WriteString("<details><summary>per subject</summary>\n\n| subject | confirmed | pruned | not reached | not driven |\n|---|--:|--:|--:|--:|\n")
	for _, n := range names {
		c := by[n]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", n, c["confirmed"], c["pruned"], c["not reached"], c["not driven"])
	}
	b.WriteString("\n</details>\n")
	if len(notes) > 0 {
		b.WriteString("\nNotes:\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}

func perConfirmed(c candCounts) string {
	un := unconfirmed(c)
	if c["confirmed"] == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", float64(un)/float64(c["confirmed"]))
}

// runCandidates runs the section.
func (c *config) runCandidates(out, subjects string) error {
	start := time.Now()
	ctx := context.Background()
	src, err := filepath.Abs(subjects)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "pecanvet-eval-candidates-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	dir := filepath.Join(work, "subjects")
	if err := copyTree(src, dir); err != nil {
		return err
	}
	var notes []string
	progress("candidates: pecanvet check -json -candidates ./... in %s", dir)
	r := measure(ctx, c.vetTimeout, dir, nil, c.pecanvet, "check", "-q", "-json", "-candidates", "./...")
	if r.Exit != 0 && r.Exit != 1 {
		notes = append(notes, "pecanvet check: "+r.describe()+": "+lastLines(r.Stderr, 3))
	}
	by := parseCandidates(r.Stdout)
	notes = append(notes, fmt.Sprintf("the check took %s", secs(r.Wall)))

	// The static analyzers beside go vet's suite: warm both, then
	// alternate, each run with a vet flag of its own.
	const runs = 3
	var std, static []time.Duration
	for i := 0; i <= runs; i++ {
		a := measure(ctx, c.vetTimeout, dir, nil, "go", "vet", fmt.Sprintf("-printf.funcs=pecanvetEval%d", i), "./...")
		p := measure(ctx, c.vetTimeout, dir, nil, "go", "vet", "-vettool="+c.pecanvet, "-pecan.replay=false",
			"-pecan.stats="+filepath.Join(work, fmt.Sprintf("stats%d.jsonl", i)), "./...")
		if i == 0 {
			continue // the warm-up: the build cache, and go vet's own
		}
		if a.Exit != 0 && a.Exit != 1 || p.Exit != 0 && p.Exit != 1 {
			notes = append(notes, fmt.Sprintf("go vet run %d: %s; with pecanvet: %s: %s", i, a.describe(), p.describe(), lastLines(p.Stderr, 2)))
		}
		std, static = append(std, a.Wall), append(static, p.Wall)
	}
	text := renderCandidates(by, medianDur(std), medianDur(static), runs, notes) +
		fmt.Sprintf("\nGenerated by `make eval` (-sections candidates) on %s (section took %v).\n",
			time.Now().UTC().Format("2006-01-02 15:04 MST"), time.Since(start).Round(time.Second))
	fmt.Print(text)
	progress("candidates: written to %s", out)
	return writeSection(out, "candidates", text)
}

func medianDur(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
