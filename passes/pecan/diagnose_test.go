package pecan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
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
		reported, elsewhere := diagnose(pass, found)
		if len(elsewhere) != 0 {
			t.Errorf("%d diagnostics left elsewhere, want 0", len(elsewhere))
		}
		if len(got) != 1 || len(reported) != 1 {
			t.Fatalf("%d diagnostics, %d reported; want 1", len(got), len(reported))
		}
		if reported[0].Lead != "" {
			t.Errorf("reported the finding led by %s, want its lead", reported[0].Lead)
		}
		for _, want := range []string{"(and 1 more interleaving with this dependence, shown with -v)", "(and 1 more atomicity violation here)"} {
			if !strings.Contains(got[0].Message, want) {
				t.Errorf("message %q lacks %q", got[0].Message, want)
			}
		}
	}
}

// TestDiagnoseExternal: a finding at a site in an external test package's
// file is reported by neither package's unit unless the package's unit
// hands it on (ExternalOut) and the external test package's unit reports
// it (ExternalIn), with its steps as related information: a race between
// two goroutines of the external tests (gookit/event's tests: go test
// -race reports them).
func TestDiagnoseExternal(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name, src string) *ast.File {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	pkgFile := parse("/m/cache/cache.go", "package cache\n\nvar N int\n\nfunc Inc() {\n\tN++\n}\n")
	extFile := parse("/m/cache/cache_x_test.go", "package cache_test\n\nimport \"testing\"\n\nfunc TestN(t *testing.T) {\n\t_ = 1\n\t_ = 2\n}\n")
	race := pattern.MustParse("race/WW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w")[0]
	sites := []string{"cache/cache_x_test.go:6:2", "cache/cache_x_test.go:7:2"}
	f := check.Finding{
		Package: "cache", Test: "TestN",
		Anomaly: predict.Anomaly{Pattern: race, Events: make([]int32, 2), Sites: sites, Key: pattern.Key(race, sites)},
		Schedule: &trace.Schedule{Anomaly: []int{0, 1}, Steps: []trace.Step{
			{G: "g1", Op: trace.Write, Obj: "N#1", Site: sites[0]},
			{G: "g2", Op: trace.Write, Obj: "N#1", Site: sites[1]},
		}},
		Verdict:    replay.Verdict{Verdict: replay.Reproduced, Passed: true},
		Goroutines: []string{"g1", "g2"},
		Objects:    []string{"N#1", "N#1"},
	}
	var got []analysis.Diagnostic
	pkgPass := &analysis.Pass{Fset: fset, Files: []*ast.File{pkgFile}, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	reported, elsewhere := diagnose(pkgPass, []check.Finding{f})
	if len(got) != 0 || len(reported) != 0 || len(elsewhere) != 1 {
		t.Fatalf("the package's unit reported %d (%d), left %d elsewhere; want 0 and 1", len(got), len(reported), len(elsewhere))
	}
	ExternalOut = filepath.Join(t.TempDir(), "vet.out.pecan")
	ExternalIn = ExternalOut
	defer func() { ExternalOut, ExternalIn = "", "" }()
	if err := writeExternal(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ExternalOut); !os.IsNotExist(err) {
		t.Errorf("nothing to hand on, yet %s was written (%v)", ExternalOut, err)
	}
	if err := writeExternal(elsewhere); err != nil {
		t.Fatal(err)
	}
	extPass := &analysis.Pass{Fset: fset, Files: []*ast.File{extFile}, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	if err := reportExternal(extPass); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("the external test package's unit reported %d diagnostics, want 1", len(got))
	}
	if p := fset.Position(got[0].Pos); p.Filename != "/m/cache/cache_x_test.go" || p.Line != 6 || got[0].Category != "race" {
		t.Errorf("reported at %v (%s), want cache_x_test.go:6, race", p, got[0].Category)
	}
	if len(got[0].Related) != 2 {
		t.Errorf("%d related steps, want 2", len(got[0].Related))
	}
	// No file: the package's unit ran no dynamic check; nothing to report.
	ExternalIn = filepath.Join(t.TempDir(), "absent")
	if err := reportExternal(extPass); err != nil || len(got) != 1 {
		t.Errorf("absent file: err %v, %d diagnostics", err, len(got))
	}
	// A corrupt file is an error naming it, not silence.
	os.WriteFile(ExternalIn, []byte("{not json"), 0o644)
	if err := reportExternal(extPass); err == nil || !strings.Contains(err.Error(), ExternalIn) {
		t.Errorf("corrupt file: err %v", err)
	}
}
