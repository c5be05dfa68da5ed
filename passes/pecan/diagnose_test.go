package pecan

import (
	"go/ast"
	"go/parser"
	"go/token"
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
		for _, want := range []string{"(and 1 more interleaving with this dependence, shown with -v)", "(and 1 more atomicity violation here)"} {
			if !strings.Contains(got[0].Message, want) {
				t.Errorf("message %q lacks %q", got[0].Message, want)
			}
		}
	}
}
