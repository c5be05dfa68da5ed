package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/passes/pecan"
)

// The real-modules section: pinned modules from the module
// proxy, each copied out of the module cache and checked with
// `go vet -vettool=pecanvet ./...` beside `go test -race -count=1 ./...`.

// modSpec is one line of the modules file.
type modSpec struct {
	Path, Version string
	Tags          string // build tags its tests need (-tags=a,b after module@version)
	Short         bool   // run its tests with -short (-short after module@version)
	Why           string // the comment after it
}

// readModules reads "module@version [-tags=a,b] [-short]  # why" lines;
// blank lines and lines starting with # are skipped. -tags names build
// tags without which the module's tests do not build (its Makefile passes
// them), as a user would set them for both go vet and go test. -short
// runs the tests as go test -short does, for both (-pecan.short for go
// vet): for suites whose long tests (gigabyte transfers) skip themselves
// under testing.Short(), as their CI runs them.
func readModules(path string) ([]modSpec, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []modSpec
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		why := ""
		if i := strings.Index(line, "#"); i >= 0 {
			line, why = strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+1:])
		}
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		p, v, ok := strings.Cut(fields[0], "@")
		if !ok || p == "" || v == "" {
			return nil, fmt.Errorf("%s:%d: want module@version, got %q", path, n, line)
		}
		m := modSpec{Path: p, Version: v, Why: why}
		for _, f := range fields[1:] {
			if f == "-short" && !m.Short {
				m.Short = true
				continue
			}
			tags, ok := strings.CutPrefix(f, "-tags=")
			if !ok || tags == "" || m.Tags != "" {
				return nil, fmt.Errorf("%s:%d: want module@version [-tags=a,b] [-short], got %q", path, n, line)
			}
			m.Tags = tags
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

func (m modSpec) String() string { return m.Path + "@" + m.Version }

// env is what the module's go commands add to their environment: its
// build tags through GOFLAGS, which go vet, go test, go list and go build
// read, and so do the go test builds pecanvet makes under go vet.
func (m modSpec) env() []string {
	if m.Tags == "" {
		return nil
	}
	return []string{"GOFLAGS=-tags=" + m.Tags}
}

// raceArgs is the module's go test -race command line.
func (m modSpec) raceArgs() []string {
	args := []string{"test", "-race", "-count=1"}
	if m.Short {
		args = append(args, "-short")
	}
	return append(args, "./...")
}

func (c *config) selected(m modSpec) bool {
	return c.only == nil || m.named(c.only)
}

// coldSelected reports whether -cold names the module.
func (c *config) coldSelected(m modSpec) bool {
	return m.named(c.cold)
}

// named reports whether names holds the module's path, path@version or
// last element.
func (m modSpec) named(names map[string]bool) bool {
	// The last element names a module, but not a major version suffix
	// (github.com/hashicorp/golang-lru/v2 is "golang-lru").
	base := filepath.Base(m.Path)
	if v := regexp.MustCompile(`/v[0-9]+$`).FindString(m.Path); v != "" {
		base = filepath.Base(strings.TrimSuffix(m.Path, v))
	}
	return names[m.Path] || names[filepath.Base(m.Path)] || names[base] || names[m.String()]
}

// triageEntry is one triaged report.
type triageEntry struct {
	Verdict string // "true bug" or "false"
	Reason  string
}

var triageRow = regexp.MustCompile(`^\|\s*` + "`?" + `([^|` + "`" + `]+?)` + "`?" + `\s*\|\s*([^|]+?)\s*\|\s*(.*?)\s*\|?\s*$`)

// readTriage reads the triage file's table rows: | key | true bug/false | reason |.
func readTriage(path string) (map[string]triageEntry, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]triageEntry{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]triageEntry{}
	for n, l := range strings.Split(string(b), "\n") {
		m := triageRow.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil || m[1] == "key" || strings.HasPrefix(m[1], "--") {
			continue
		}
		v := strings.ToLower(m[2])
		if v != "true bug" && v != "false" {
			return nil, fmt.Errorf("%s:%d: verdict %q: want \"true bug\" or \"false\"", path, n+1, m[2])
		}
		out[m[1]] = triageEntry{v, m[3]}
	}
	return out, nil
}

// reportKey names a report stably for a pinned version:
// module@version file:line category.
func reportKey(m modSpec, dir string, d diag) string {
	file, line := splitPosn(d.Posn)
	if r, err := filepath.Rel(dir, file); err == nil {
		file = filepath.ToSlash(r)
	}
	return fmt.Sprintf("%s %s:%d %s", m, file, line, d.Category)
}

type modResult struct {
	spec      modSpec
	goLine    string
	err       string // download or copy failed
	packages  []pkgRow
	reports   []modReport
	vet, race *run
	// coldVet and coldRace ran from a fresh, empty build cache (-cold);
	// nil if not asked for.
	coldVet, coldRace *run
	notes             []string
	vetErrs           []string
	stats             []pecan.Stats // vet's -pecan.stats lines, one per package checked
}

type modReport struct {
	key, message string
	triage       *triageEntry
}

func evalModule(ctx context.Context, c *config, work string, m modSpec, triage map[string]triageEntry) *modResult {
	mc := *c
	mc.env = m.env()
	if m.Short {
		mc.vetFlags = append(slices.Clone(c.vetFlags), "-pecan.short")
	}
	c = &mc
	res := &modResult{spec: m}
	if m.Tags != "" {
		res.notes = append(res.notes, "build tags "+m.Tags+" (GOFLAGS=-tags="+m.Tags+") for every go command")
	}
	if m.Short {
		res.notes = append(res.notes, "-short: go test -race -short and go vet -pecan.short")
	}
	progress("modules: %s: go mod download", m)
	dl := measure(ctx, c.stepTimeout, work, nil, "go", "mod", "download", "-json", m.String())
	var info struct{ Dir, GoMod, Error string }
	if err := json.Unmarshal(dl.Stdout, &info); err != nil || info.Error != "" || info.Dir == "" {
		res.err = strings.TrimSpace(fmt.Sprintf("go mod download: %s %s %s", dl.describe(), info.Error, lastLines(dl.Stderr, 3)))
		return res
	}
	dir := filepath.Join(work, strings.NewReplacer("/", "_", "@", "_").Replace(m.String()))
	if err := os.CopyFS(dir, os.DirFS(info.Dir)); err != nil {
		res.err = "copy out of the module cache: " + err.Error()
		return res
	}
	// The module cache is read-only; the copy must be the user's own.
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			if fi, err := d.Info(); err == nil {
				os.Chmod(p, fi.Mode().Perm()|0o200)
			}
		}
		return nil
	})
	if n, err := completeModule(ctx, c, dir, m); err != nil {
		res.err = err.Error()
		return res
	} else if n != "" {
		res.notes = append(res.notes, n)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
		if mm := regexp.MustCompile(`(?m)^go\s+(\S+)`).FindSubmatch(b); mm != nil {
			res.goLine = string(mm[1])
		}
	}
	res.notes = append(res.notes, warmDeps(ctx, c, dir)...)

	progress("modules: %s: go %s (bound %v)", m, strings.Join(m.raceArgs(), " "), c.raceTimeout)
	res.race = measure(ctx, c.raceTimeout, dir, c.env, "go", m.raceArgs()...)
	progress("modules: %s: go test -race: %s in %s", m, res.race.describe(), secs(res.race.Wall))
	if res.race.describe() != "ok" {
		res.notes = append(res.notes, "go test -race: "+res.race.describe()+": "+failSummary(res.race.Stdout, res.race.Stderr))
	}

	stats := filepath.Join(work, filepath.Base(dir)+".stats.jsonl")
	args := vetArgs(c, stats)
	res.notes = append(res.notes, warmVet(ctx, c, dir, args, stats)...)
	progress("modules: %s: go %s (bound %v)", m, strings.Join(args, " "), c.vetTimeout)
	res.vet = measure(ctx, c.vetTimeout, dir, c.env, "go", args...)
	progress("modules: %s: go vet: %s in %s", m, res.vet.describe(), secs(res.vet.Wall))
	if err := c.keepVet(filepath.Base(dir), res.vet, stats); err != nil {
		res.notes = append(res.notes, "-keep: "+err.Error())
	}
	diags, errs, err := parseVetJSON(res.vet.Stdout)
	if err != nil {
		res.notes = append(res.notes, err.Error())
	}
	res.vetErrs = errs
	seen := map[string]bool{}
	for _, d := range diags {
		k := reportKey(m, dir, d)
		if seen[k] {
			continue
		}
		seen[k] = true
		r := modReport{key: k, message: d.Message}
		if t, ok := triage[k]; ok {
			r.triage = &t
		}
		res.reports = append(res.reports, r)
	}
	sort.Slice(res.reports, func(i, j int) bool { return res.reports[i].key < res.reports[j].key })
	st, err := readStats(stats)
	if err != nil {
		res.notes = append(res.notes, err.Error())
	}
	res.stats = st
	res.packages = packageRows(ctx, dir, st, c, vetCut(res.vet, c.vetTimeout))
	res.notes = append(res.notes, pecanNotes(res.vet.Stderr)...)
	if res.vet.describe() != "ok" {
		res.notes = append(res.notes, "go vet: "+res.vet.describe()+": "+lastLines(res.vet.Stderr, 5))
	}
	if c.coldSelected(m) {
		res.coldRace, res.coldVet = coldRuns(ctx, c, work, dir, m)
		for _, r := range []*run{res.coldRace, res.coldVet} {
			if r.describe() != "ok" && !(r == res.coldVet && r.Exit == 1) {
				res.notes = append(res.notes, "cold run: "+r.describe()+": "+lastLines(r.Stderr, 3))
			}
		}
	}
	return res
}

// keepVet writes a go vet run's output and stats file into -keep's
// directory, named after the module's copy (name), when -keep is set.
func (c *config) keepVet(name string, vet *run, stats string) error {
	if c.keep == "" {
		return nil
	}
	if err := os.MkdirAll(c.keep, 0o755); err != nil {
		return err
	}
	st, err := os.ReadFile(stats)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for suffix, b := range map[string][]byte{".vet.json": vet.Stdout, ".vet.stderr": vet.Stderr, ".stats.jsonl": st} {
		if err := os.WriteFile(filepath.Join(c.keep, name+suffix), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// coldRuns runs go test -race and go vet -vettool=pecanvet once more, each
// from a fresh, empty build cache (GOCACHE) and pecanvet from an empty
// cache of its own (PECANVET_CACHE, where its runtime's source is kept):
// the first run after installing Go or pecanvet. -race then compiles
// every dependency with -race; go vet compiles them, runs the vet tool on
// each, and pecanvet builds its test binaries. The module cache stays
// warm: downloading is not either tool's work.
func coldRuns(ctx context.Context, c *config, work, dir string, m modSpec) (race, vet *run) {
	fresh := func(name string) (string, func()) {
		d, err := os.MkdirTemp(work, name+"-")
		if err != nil {
			return "", func() {}
		}
		return d, func() { os.RemoveAll(d) }
	}
	gocache, done := fresh("gocache-race")
	progress("modules: %s: cold go %s (GOCACHE=%s)", m, strings.Join(m.raceArgs(), " "), gocache)
	race = measure(ctx, c.raceTimeout, dir, append([]string{"GOCACHE=" + gocache}, c.env...), "go", m.raceArgs()...)
	done()
	progress("modules: %s: cold go test -race: %s in %s", m, race.describe(), secs(race.Wall))
	gocache, done = fresh("gocache-vet")
	defer done()
	pcache, pdone := fresh("pecanvet-cache")
	defer pdone()
	args := vetArgs(c, filepath.Join(work, filepath.Base(dir)+".cold.stats.jsonl"))
	progress("modules: %s: cold go %s (GOCACHE=%s)", m, strings.Join(args, " "), gocache)
	vet = measure(ctx, c.vetTimeout, dir, append([]string{"GOCACHE=" + gocache, "PECANVET_CACHE=" + pcache}, c.env...), "go", args...)
	progress("modules: %s: cold go vet: %s in %s", m, vet.describe(), secs(vet.Wall))
	return race, vet
}

// completeModule makes the copy a module the go command can build, as its
// user would: a +incompatible module without a go.mod gets one (go mod
// init, then go mod tidy for its requirements), and a go.sum that lacks
// the requirements' sums is filled by go mod tidy, the module's own
// go.mod kept as it was (tidy would add a go line to one without, and a
// newer go line changes the language, loop variables for one). It
// returns a note saying what it did.
func completeModule(ctx context.Context, c *config, dir string, m modSpec) (string, error) {
	// A go.work in the module's zip describes its repository (dataloadgen's
	// names a benchmark directory, a nested module the zip leaves out), and
	// the go command then loads nothing; a user of the module builds it
	// without: the copy drops it.
	work := ""
	if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
		if err := os.Remove(filepath.Join(dir, "go.work")); err != nil {
			return "", err
		}
		os.Remove(filepath.Join(dir, "go.work.sum"))
		work = "go.work of the module's repository removed from the copy"
	}
	repl, err := dropOutsideReplaces(dir)
	if err != nil {
		return "", err
	}
	note, err := completeGoMod(ctx, c, dir, m)
	var notes []string
	for _, n := range []string{work, repl, note} {
		if n != "" {
			notes = append(notes, n)
		}
	}
	return strings.Join(notes, "; "), err
}

// completeGoMod gives the copy a go.mod and a full go.sum (completeModule).
func completeGoMod(ctx context.Context, c *config, dir string, m modSpec) (string, error) {
	gomod := filepath.Join(dir, "go.mod")
	orig, err := os.ReadFile(gomod)
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	env := []string{"GOFLAGS=-mod=mod"}
	if orig == nil {
		if r := measure(ctx, c.stepTimeout, dir, env, "go", "mod", "init", m.Path); r.describe() != "ok" {
			return "", fmt.Errorf("no go.mod, and go mod init: %s: %s", r.describe(), lastLines(r.Stderr, 3))
		}
		if r := measure(ctx, c.stepTimeout, dir, env, "go", "mod", "tidy"); r.describe() != "ok" {
			return "", fmt.Errorf("no go.mod, and go mod tidy: %s: %s", r.describe(), lastLines(r.Stderr, 3))
		}
		return "no go.mod (a +incompatible module): made with go mod init " + m.Path + " and go mod tidy", nil
	}
	if r := measure(ctx, c.stepTimeout, dir, c.env, "go", "list", "-deps", "-test", "./..."); r.describe() == "ok" {
		return "", nil
	}
	if r := measure(ctx, c.stepTimeout, dir, env, "go", "mod", "tidy"); r.describe() != "ok" {
		return "", fmt.Errorf("go.sum incomplete, and go mod tidy: %s: %s", r.describe(), lastLines(r.Stderr, 3))
	}
	if err := os.WriteFile(gomod, orig, 0o644); err != nil {
		return "", err
	}
	return "go.sum incomplete: filled by go mod tidy (go.mod kept)", nil
}

// failSummary picks the FAIL lines of a go test run.
func failSummary(stdout, stderr []byte) string {
	var out []string
	for _, l := range strings.Split(string(stdout)+"\n"+string(stderr), "\n") {
		if strings.HasPrefix(l, "FAIL") || strings.HasPrefix(l, "--- FAIL") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	if len(out) == 0 {
		return lastLines(stderr, 3)
	}
	if len(out) > 8 {
		out = append(out[:8], "…")
	}
	return strings.Join(out, " / ")
}

// modulesSection names the EVAL.md section of the modules file:
// "modules" for the pinned list, else the file's name without its
// extension ("modules-trial"), so that a second list does not overwrite
// the first's section.
func (c *config) modulesSection() string {
	name := strings.TrimSuffix(filepath.Base(c.modulesFile), filepath.Ext(c.modulesFile))
	if name == "modules" || name == "" {
		return "modules"
	}
	return name
}

// makeTarget names the make target that writes the modules file's
// section, for the section's closing line: eval-modules for the pinned
// list, eval-trial3 for modules-trial3.txt (the Makefile's names).
func (c *config) makeTarget() string {
	sec := c.modulesSection()
	if sec == "modules" {
		return "make eval-modules"
	}
	return "make eval-" + strings.TrimPrefix(sec, "modules-")
}

func (c *config) runModules(out string) error {
	start := time.Now()
	mods, err := readModules(c.modulesFile)
	if err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	triage, err := readTriage(c.triageFile)
	if err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	work, err := os.MkdirTemp("", "pecanvet-eval-modules-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var results []*modResult
	var picked []modSpec
	for _, m := range mods {
		if c.selected(m) {
			picked = append(picked, m)
		}
	}
	if len(picked) == 0 {
		return fmt.Errorf("modules: -modules %q selects none of %s", c.onlyFlag, c.modulesFile)
	}
	for i, m := range picked {
		progress("modules: [%d/%d] %s", i+1, len(picked), m)
		results = append(results, evalModule(context.Background(), c, work, m, triage))
	}
	by := c.makeTarget()
	text := renderModules(results, mods, c) + fmt.Sprintf("\nGenerated by `%s` on %s (section took %v).\n", by, time.Now().UTC().Format("2006-01-02 15:04 MST"), time.Since(start).Round(time.Second))
	fmt.Print(text)
	progress("modules: written to %s", out)
	return writeSection(out, c.modulesSection(), text)
}

func renderModules(results []*modResult, all []modSpec, c *config) string {
	var b strings.Builder
	if sec := c.modulesSection(); sec != "modules" {
		fmt.Fprintf(&b, "## Real modules from the module proxy (%s)\n\n", sec)
	} else {
		b.WriteString("## Real modules from the module proxy\n\n")
	}
	fmt.Fprintf(&b, "The pinned modules of `%s`, each copied out of the module cache into a temporary directory and checked from its root with `go vet -vettool=pecanvet -json ./...`%s, beside `go test -race -count=1 ./...`. ", c.modulesFile, flagsNote(c))
	b.WriteString("Both ran on the same warm build cache (the module's dependencies built beforehand, with -race and without; the module's own packages built by each run); wall time includes the build (and, for -race, the race runtime's default 1 s sleep at exit of each test binary, as users see it). " + vetCacheNote + " ")
	b.WriteString("Peak RSS: the largest single process of the command's tree (wait4's rusage) / the largest sampled sum over the live tree; peak RSS pecanvet: the vet tool's own processes, the largest over the module's packages (getrusage of the tool's process, -pecan.stats), without the test binaries and compilers that the tree's figures include. ")
	fmt.Fprintf(&b, "Packages: checked / fast path (no concurrency, nothing run) / skipped. Reports are triaged in `%s`; an untriaged one is marked ⚠.\n\n", c.triageFile)
	if len(results) < len(all) {
		var names []string
		for _, r := range results {
			names = append(names, r.spec.String())
		}
		fmt.Fprintf(&b, "This run evaluated %d of the %d listed modules (-modules): %s.\n\n", len(results), len(all), strings.Join(names, ", "))
	}
	b.WriteString("Drivers: the generated drivers (two goroutines calling two methods of a type, issue 27) generated / run / skipped; a generated driver not recorded was not needed, its candidates held by a test in two goroutines. ")
	b.WriteString("Why the skipped ones skipped is listed under each module.\n\n")
	b.WriteString("| module | go | packages checked/fast/skipped | tests checked | drivers gen/run/skipped | reports (untriaged) | -race reports | vet | -race | vet/-race | peak RSS vet | peak RSS pecanvet | peak RSS -race |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	var sum struct {
		mods, skipped, tests, checked, fast, reports, untriaged, over3 int
		drivers                                                        driverCount
		maxRSS, toolRSS                                                int64
		maxRatio                                                       float64
	}
	for _, r := range results {
		if r.err != "" {
			fmt.Fprintf(&b, "| %s | %s | – | – | – | – | – | – | – | – | – | – | – |\n", r.spec, mdCell("not evaluated: "+r.err))
			continue
		}
		ck, fast, sk, tests, tc := countStatus(r.packages)
		ft := fastTests(r.packages)
		untriaged := 0
		for _, rep := range r.reports {
			if rep.triage == nil {
				untriaged++
			}
		}
		dc := countDrivers(r.stats)
		sum.drivers.add(dc)
		sum.mods++
		sum.skipped += sk
		sum.tests += tests
		sum.checked += tc
		sum.fast += ft
		sum.reports += len(r.reports)
		sum.untriaged += untriaged
		sum.maxRSS = max(sum.maxRSS, r.vet.MaxRSS, r.vet.TreeRSS)
		tool := toolRSS(r.stats)
		sum.toolRSS = max(sum.toolRSS, tool)
		if r.race.Wall > 0 {
			x := r.vet.Wall.Seconds() / r.race.Wall.Seconds()
			sum.maxRatio = max(sum.maxRatio, x)
			if x > 3 {
				sum.over3++
			}
		}
		rs := fmt.Sprintf("%d", len(r.reports))
		if untriaged > 0 {
			rs += fmt.Sprintf(" (⚠ %d)", untriaged)
		}
		vet := secs(r.vet.Wall)
		if d := r.vet.describe(); d != "ok" {
			vet += " (" + d + ")"
		}
		race := secs(r.race.Wall)
		if d := r.race.describe(); d != "ok" {
			race += " (" + d + ")"
		}
		tcs := fmt.Sprintf("%d/%d", tc, tests)
		if ft > 0 {
			tcs += fmt.Sprintf(" (+%d fast path)", ft)
		}
		fmt.Fprintf(&b, "| %s | %s | %d/%d/%d | %s | %d/%d/%d | %s | %d | %s | %s | %s | %s / %s | %s | %s / %s |\n",
			r.spec, r.goLine, ck, fast, sk, tcs, dc.generated, dc.run, dc.skipped(), rs, raceReports(r.race), vet, race, ratio(r.vet.Wall, r.race.Wall),
			mib(r.vet.MaxRSS), mib(r.vet.TreeRSS), mib(tool), mib(r.race.MaxRSS), mib(r.race.TreeRSS))
	}
	fmt.Fprintf(&b, "\nOver the %d modules evaluated: %d packages skipped, %d of %d tests checked dynamically and %d in fast-path packages (no goroutine, channel, select or sync in the package or its tests: one goroutine runs them, nothing to predict), %d left unchecked, %d reports (%d untriaged), vet over 3x -race on %d, worst ratio %.1fx, peak RSS of vet's tree at most %s, of pecanvet's own processes at most %s.\n",
		sum.mods, sum.skipped, sum.checked, sum.tests, sum.fast, sum.tests-sum.checked-sum.fast, sum.reports, sum.untriaged, sum.over3, sum.maxRatio, mib(sum.maxRSS), mib(sum.toolRSS))
	fmt.Fprintf(&b, "\nGenerated drivers: %d generated, %d run, %d skipped%s.\n", sum.drivers.generated, sum.drivers.run, sum.drivers.skipped(), sum.drivers.why())
	b.WriteString(renderCold(results))
	for _, r := range results {
		if r.err != "" {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n", r.spec)
		if r.spec.Why != "" {
			fmt.Fprintf(&b, "%s. ", r.spec.Why)
		}
		fmt.Fprintf(&b, "go %s; vet's largest process at its peak: %s.\n\n", r.goLine, r.vet.PeakProc)
		if t := whereTime(r.vet.Wall, r.stats); t != "" {
			b.WriteString(t + "\n\n")
		}
		b.WriteString(renderPackages(r.packages))
		if dc := countDrivers(r.stats); dc.skipped() > 0 {
			fmt.Fprintf(&b, "\nGenerated drivers skipped: %d of %d recorded%s.\n", dc.skipped(), dc.run+dc.skipped(), dc.why())
		}
		if len(r.reports) > 0 {
			b.WriteString("\nReports:\n\n")
			for _, rep := range r.reports {
				t := "⚠ untriaged"
				if rep.triage != nil {
					t = rep.triage.Verdict + ": " + rep.triage.Reason
				}
				fmt.Fprintf(&b, "- `%s` — %s — %s\n", rep.key, oneLine(rep.message), oneLine(t))
			}
		}
		b.WriteString(renderNotes(r.notes, r.vetErrs))
	}
	return b.String()
}

// whereTime says where vet's wall time went: the dynamic check's phases,
// summed over the packages checked (-pecan.stats), and idle, the part of
// vet's wall time when no package's check ran (type-checking, the go
// command, the tool's runs on dependencies, waiting for a core): so that
// a slow module explains itself. Replays (and the packages' checks) run
// in parallel, so the phases may add up to more than the wall time; idle
// is measured against the union of the checks' spans (checkSpan).
func whereTime(vet time.Duration, st []pecan.Stats) string {
	var checks, build, load, drivers, instrument, compile, record, predict, replay float64
	records, replays := 0, 0
	for _, s := range st {
		checks += s.Wall
		build += s.Build
		load += s.Load
		drivers += s.Drivers
		instrument += s.Instrument
		compile += s.Compile
		record += s.Record
		predict += s.Predict
		replay += s.Replay
		records += s.Records
		replays += s.Replays
	}
	if len(st) == 0 || vet <= 0 {
		return ""
	}
	// Idle: vet's wall time outside every check's span when the stats
	// say when each ended; otherwise vet's wall less the checks' summed
	// walls, which is 0 as soon as go vet runs two checks at once (its
	// default on two cores) and hides go vet's own time.
	idle := max(0, vet.Seconds()-checks)
	during := ""
	if span, ok := checkSpan(st); ok {
		idle = max(0, vet.Seconds()-span)
		during = fmt.Sprintf(" (some check running during %.1f s)", span)
	}
	// The build's parts, when the stats have them (older builds' do not):
	// the load and go test -c are every package's fixed cost (issue 30).
	parts := ""
	if load+drivers+instrument+compile > 0 {
		parts = fmt.Sprintf(" (load %.1f s, drivers %.1f s, instrument %.1f s, go test -c %.1f s)", load, drivers, instrument, compile)
	}
	return fmt.Sprintf("Where the time goes: vet %.1f s; the checks of %d packages %.1f s%s: build %.1f s%s, record %.1f s (%d runs), predict %.1f s, replay %.1f s (%d runs); idle %.1f s (no check running: type-checking, the go command, waiting).",
		vet.Seconds(), len(st), checks, during, build, parts, record, records, predict, replay, replays, idle)
}

// checkSpan is the length of the union of the checks' spans, each
// [End-Wall, End]: the time some package's check ran. ok is false when a
// check that took time has no End (stats of builds before it was written).
func checkSpan(st []pecan.Stats) (span float64, ok bool) {
	type iv struct{ from, to float64 }
	var ivs []iv
	for _, s := range st {
		if s.Wall <= 0 {
			continue
		}
		if s.End <= 0 {
			return 0, false
		}
		ivs = append(ivs, iv{s.End - s.Wall, s.End})
	}
	if len(ivs) == 0 {
		return 0, false
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].from < ivs[j].from })
	cur := ivs[0]
	for _, v := range ivs[1:] {
		if v.from > cur.to {
			span += cur.to - cur.from
			cur = v
			continue
		}
		cur.to = max(cur.to, v.to)
	}
	return span + cur.to - cur.from, true
}

// toolRSS is the largest peak of the vet tool's own processes over a
// module's packages (-pecan.stats' max_rss): go vet's tree holds the
// tests' memory and the compilers' besides.
func toolRSS(st []pecan.Stats) int64 {
	var tool int64
	for _, s := range st {
		tool = max(tool, s.MaxRSS)
	}
	return tool
}

// driverCount counts a module's generated drivers (-pecan.stats).
type driverCount struct {
	generated, run int
	skips          map[string]int // skipClass → how many
}

func countDrivers(st []pecan.Stats) driverCount {
	var c driverCount
	for _, s := range st {
		c.add(driverCount{generated: s.DriversGenerated, run: s.DriversRun, skips: skipClasses(s.DriverSkips)})
	}
	return c
}

func skipClasses(skips []string) map[string]int {
	m := map[string]int{}
	for _, s := range skips {
		m[skipClass(s)]++
	}
	return m
}

func (c *driverCount) add(o driverCount) {
	c.generated += o.generated
	c.run += o.run
	for k, n := range o.skips {
		if c.skips == nil {
			c.skips = map[string]int{}
		}
		c.skips[k] += n
	}
}

func (c driverCount) skipped() int {
	n := 0
	for _, k := range c.skips {
		n += k
	}
	return n
}

// why lists the skip reasons, most common first: " (4 no usable
// receiver, 1 …)", or "".
func (c driverCount) why() string {
	if len(c.skips) == 0 {
		return ""
	}
	var keys []string
	for k := range c.skips {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if c.skips[keys[i]] != c.skips[keys[j]] {
			return c.skips[keys[i]] > c.skips[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", c.skips[k], k))
	}
	return ": " + strings.Join(parts, ", ")
}

// skipClass names the kind of a driver's skip line (check.DriverRun's
// Skipped), without the methods and values it names, so that skips
// count by reason.
func skipClass(why string) string {
	switch {
	case strings.Contains(why, "no usable receiver: no test or example constructs"):
		// Not a defect of the driver (issue 27): nothing shows how
		// the type is built.
		return "no usable receiver, and no test constructs the type (the calls panic one after the other)"
	case strings.Contains(why, "no usable receiver: the tests construct"):
		return "no usable receiver although the tests construct the type (the calls panic one after the other)"
	case strings.Contains(why, "no usable receiver"):
		return "no usable receiver (the calls panic one after the other)"
	case strings.Contains(why, "exclude each other"):
		return "the calls exclude each other (each panics after the other)"
	case strings.Contains(why, "valid in one order only"):
		return "the calls are valid in one order only (the other panics)"
	case strings.Contains(why, "panics only sometimes"):
		return "the calls one after the other panic only sometimes"
	case strings.Contains(why, "one after the other does not return"):
		return "the calls one after the other do not return"
	case strings.Contains(why, "concurrently does not return"):
		return "the concurrent calls do not return"
	case strings.Contains(why, "changes with time"):
		return "the state changes with time"
	case strings.Contains(why, "stopped the test"):
		return "the copied setup stopped the test"
	case strings.HasPrefix(why, "it skipped"):
		return "the code it calls skipped"
	}
	return why
}

// raceReports counts the race detector's reports in a go test -race run.
func raceReports(r *run) int {
	return strings.Count(string(r.Stdout), "WARNING: DATA RACE") + strings.Count(string(r.Stderr), "WARNING: DATA RACE")
}

// renderCold is the table of the cold runs (-cold), or "".
func renderCold(results []*modResult) string {
	var b strings.Builder
	for _, r := range results {
		if r.err != "" || r.coldVet == nil || r.coldRace == nil {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("\nThe first run after install (cold): go vet and `go test -race -count=1 ./...` once more, each from a fresh, empty build cache (`GOCACHE`; pecanvet's own cache, `PECANVET_CACHE`, fresh too), the module cache warm. -race compiles every dependency with -race; go vet compiles them, runs the vet tool on each (with `-pecan.replay`, a process that writes an empty .vetx: the root units read their imports' types from the compiler's export data), and pecanvet builds the test binaries it runs, and a -race one where Go's race detector confirms a race no schedule runs back to back. CPU: user and system time of the command and every process it waited for; on a loaded machine wall times stretch, CPU times do not.\n\n")
			b.WriteString("| module (cold) | vet | -race | vet/-race | vet CPU | -race CPU | CPU vet/-race |\n|---|--:|--:|--:|--:|--:|--:|\n")
		}
		vet, race := secs(r.coldVet.Wall), secs(r.coldRace.Wall)
		if d := r.coldVet.describe(); d != "ok" && r.coldVet.Exit != 1 {
			vet += " (" + d + ")"
		}
		if d := r.coldRace.describe(); d != "ok" {
			race += " (" + d + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", r.spec, vet, race, ratio(r.coldVet.Wall, r.coldRace.Wall),
			secs(r.coldVet.CPU), secs(r.coldRace.CPU), ratio(r.coldVet.CPU, r.coldRace.CPU))
	}
	return b.String()
}
