package pecan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestDiagnoseLeadFirst: with -v, where a bug's lead and another finding
// of its bug (with the stronger evidence of a failing test) are reported
// at one position, the diagnostic there is the lead's, saying how many
// more interleavings it stands for, and the other is only counted.
func TestDiagnoseLeadFirst(t *testing.T) {
	src := "package cache\n\nfunc get() {\n\tn := 1\n\t_ = n\n\tn = 2\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/m/cache/cache.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	rww := pattern.MustParse("av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w")[0]
	rwr := pattern.MustParse("av/RWR atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-r")[0]
	mk := func(p *pattern.Pattern, last string) check.Finding {
		sites := []string{"cache/cache.go:4:2", "cache/cache.go:5:2", last}
		return check.Finding{
			Package: "cache", Test: "TestGet",
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, 3), Sites: sites, Key: pattern.Key(p, sites)},
			Schedule: &trace.Schedule{Anomaly: []int{0, 1, 2}, Steps: []trace.Step{
				{G: "g1", Op: trace.Read, Obj: "Cache.n#1", Site: sites[0]},
				{G: "g2", Op: trace.Write, Obj: "Cache.n#1", Site: sites[1]},
				{G: "g1", Op: trace.Read, Obj: "Cache.n#1", Site: last},
			}},
			Verdict:    replay.Verdict{Verdict: replay.Reproduced, Passed: true},
			Goroutines: []string{"g1", "g2", "g1"},
			Objects:    []string{"Cache.n#1", "Cache.n#1", "Cache.n#1"},
			Dependence: "check-then-act: the value read at cache.go:4 decides the write at cache.go:6",
		}
	}
	lead := mk(rww, "cache/cache.go:6:2")
	lead.Grouped = 1
	member := mk(rwr, "cache/cache.go:4:2")
	member.Verdict.Passed, member.Verdict.Consequence = false, "test fails: cache_test.go:9: n = 2, want 1"
	member.Lead = "cache/cache.go:4:2"
	for _, found := range [][]check.Finding{{member, lead}, {lead, member}} {
		got = nil
		reported := diagnose(pass, found)
		if len(got) != 1 || len(reported) != 1 {
			t.Fatalf("%d diagnostics, %d reported; want 1", len(got), len(reported))
		}
		if reported[0].Lead != "" {
			t.Errorf("reported the finding led by %s, want its lead", reported[0].Lead)
		}
		for _, want := range []string{"(and other interleavings of this bug, shown with -v)", "(and 1 more atomicity violation here)"} {
			if !strings.Contains(got[0].Message, want) {
				t.Errorf("message %q lacks %q", got[0].Message, want)
			}
		}
	}
}

// TestDiagnoseOtherFiles: under go vet, an external test package's unit
// runs the tests of the package it tests (VetUnits) and reports what they
// find in that package's files, which go vet did not give it, at their
// file:line:col, its steps in either package's files as related
// information; a site in another directory is not reported. Other
// drivers report only in the pass's files.
func TestDiagnoseOtherFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m", "cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pkgSrc := "package cache\n\nvar N int\n\nfunc Inc() {\n\tN++\n}\n"
	extSrc := "package cache_test\n\nimport \"testing\"\n\nfunc TestN(t *testing.T) {\n\tgo cache.Inc()\n\tcache.Inc()\n}\n"
	os.WriteFile(filepath.Join(dir, "cache.go"), []byte(pkgSrc), 0o644)
	extName := filepath.Join(dir, "cache_x_test.go")
	os.WriteFile(extName, []byte(extSrc), 0o644)
	fset := token.NewFileSet()
	extFile, err := parser.ParseFile(fset, extName, extSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	race := pattern.MustParse("race/WW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w")[0]
	finding := func(sites ...string) check.Finding {
		return check.Finding{
			Package: "cache", Test: "TestN",
			Anomaly: predict.Anomaly{Pattern: race, Events: make([]int32, 2), Sites: sites, Key: pattern.Key(race, sites)},
			Schedule: &trace.Schedule{Anomaly: []int{1, 2}, Steps: []trace.Step{
				{G: "g1", Op: trace.Fork, Obj: "g2", Site: "cache/cache_x_test.go:6:2"},
				{G: "g1", Op: trace.Write, Obj: "N#1", Site: sites[0]},
				{G: "g2", Op: trace.Write, Obj: "N#1", Site: sites[1]},
			}},
			Verdict:    replay.Verdict{Verdict: replay.Reproduced, Passed: true},
			Goroutines: []string{"g1", "g2"},
			Objects:    []string{"N#1", "N#1"},
		}
	}
	found := []check.Finding{finding("cache/cache.go:6:2", "cache/cache.go:6:2"), finding("other/cache.go:6:2", "other/cache.go:6:2")}
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Fset: fset, Files: []*ast.File{extFile}, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	if reported := diagnose(pass, found); len(got) != 0 || len(reported) != 0 {
		t.Fatalf("without VetUnits: %d diagnostics outside the pass's files, want 0", len(got))
	}
	VetUnits = true
	defer func() { VetUnits = false }()
	reported := diagnose(pass, found)
	if len(got) != 1 || len(reported) != 1 {
		t.Fatalf("%d diagnostics (%d reported), want 1", len(got), len(reported))
	}
	if p := fset.Position(got[0].Pos); p.Filename != filepath.Join(dir, "cache.go") || p.Line != 6 || p.Column != 2 || got[0].Category != "race" {
		t.Errorf("reported at %v (%s), want cache.go:6:2, race", p, got[0].Category)
	}
	var related []string
	for _, r := range got[0].Related {
		p := fset.Position(r.Pos)
		related = append(related, filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line))
	}
	if strings.Join(related, " ") != "cache_x_test.go:6 cache.go:6 cache.go:6" {
		t.Errorf("related steps at %v, want cache_x_test.go:6 and cache.go:6 twice", related)
	}
}

// TestDiagnoseModuleRace: under go vet, a data race that this package's
// tests ran in another package of its module (a helper package whose own
// tests never run that code concurrently: go-timer's scheduler) is
// reported at its own file:line:col, with its steps in either package;
// under other drivers, which take positions only in the pass's files, at
// the go statement of this package that started the racing goroutine,
// naming the site (files.anchor). An atomicity violation there and a
// race in another module's file are not reported.
func TestDiagnoseModuleRace(t *testing.T) {
	root := filepath.Join(t.TempDir(), "m")
	for name, src := range map[string]string{
		"go.mod":          "module m\n",
		"app/app.go":      "package app\n\nimport \"m/sched\"\n\nfunc Run() { sched.Start() }\n",
		"sched/sched.go":  "package sched\n\nvar n int64\n\nfunc Start() {\n\tgo func() { atomicAdd(&n) }()\n\t_ = n\n}\n",
		"app/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { Run() }\n",
	} {
		name = filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range []string{"app/app.go", "app/app_test.go"} {
		f, err := parser.ParseFile(fset, filepath.Join(root, "app", filepath.Base(name)), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	race := pattern.MustParse("race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w")[0]
	rwr := pattern.MustParse("av/RWR atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-r")[0]
	finding := func(p *pattern.Pattern, sites ...string) check.Finding {
		steps := []trace.Step{{G: "g1", Op: trace.Fork, Obj: "g2", Site: "app/app.go:5:25"}}
		var events []int
		for k, s := range sites {
			events = append(events, len(steps))
			steps = append(steps, trace.Step{G: "g" + strconv.Itoa(1+k%2), Op: trace.Read, Obj: "sched.n#1", Site: s})
		}
		return check.Finding{
			Package: "m/app", Test: "TestRun",
			Anomaly:    predict.Anomaly{Pattern: p, Events: make([]int32, len(sites)), Sites: sites, Key: pattern.Key(p, sites)},
			Schedule:   &trace.Schedule{Anomaly: events, Steps: steps},
			Verdict:    replay.Verdict{Verdict: replay.Reproduced, Passed: false, Consequence: "test fails: app_test.go:5: boom"},
			Goroutines: []string{"g1", "g2", "g1"}[:len(sites)],
			Objects:    []string{"sched.n#1", "sched.n#1", "sched.n#1"}[:len(sites)],
		}
	}
	found := []check.Finding{
		finding(race, "sched/sched.go:7:6", "sched/sched.go:6:24"),
		finding(rwr, "sched/sched.go:7:6", "sched/sched.go:6:24", "sched/sched.go:7:6"),
		finding(race, "other.org/x@v1.0.0/x.go:3:1", "other.org/x@v1.0.0/x.go:4:1"),
	}
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Fset: fset, Files: files, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	if reported := diagnose(pass, found); len(got) != 1 || len(reported) != 1 {
		t.Fatalf("without VetUnits: %d diagnostics (%d reported), want 1", len(got), len(reported))
	}
	if p := fset.Position(got[0].Pos); p.Filename != filepath.Join(root, "app", "app.go") || p.Line != 5 || p.Column != 25 || got[0].Category != "race" || !strings.HasSuffix(got[0].Message, "(at sched/sched.go:6:24, in another package of the module, run by a goroutine started here)") {
		t.Errorf("without VetUnits: reported at %v (%s): %q, want app/app.go:5:25, race, naming sched/sched.go:6:24", p, got[0].Category, got[0].Message)
	}
	for _, r := range got[0].Related {
		if p := fset.Position(r.Pos); filepath.Base(filepath.Dir(p.Filename)) != "app" {
			t.Errorf("without VetUnits: a related step at %v, outside the pass's files", p)
		}
	}
	got = nil
	VetUnits = true
	defer func() { VetUnits = false }()
	reported := diagnose(pass, found)
	if len(got) != 1 || len(reported) != 1 {
		t.Fatalf("%d diagnostics (%d reported), want 1", len(got), len(reported))
	}
	if p := fset.Position(got[0].Pos); p.Filename != filepath.Join(root, "sched", "sched.go") || p.Line != 6 || p.Column != 24 || got[0].Category != "race" {
		t.Errorf("reported at %v (%s), want sched/sched.go:6:24, race", p, got[0].Category)
	}
	var related []string
	for _, r := range got[0].Related {
		p := fset.Position(r.Pos)
		related = append(related, filepath.Base(filepath.Dir(p.Filename))+"/"+filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line))
	}
	if strings.Join(related, " ") != "app/app.go:5 sched/sched.go:7 sched/sched.go:6" {
		t.Errorf("related steps at %v, want app/app.go:5, sched/sched.go:7 and :6", related)
	}
}
