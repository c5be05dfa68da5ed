package pecan_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/passes/pecan"
)

// TestForget: the analyzer checks a directory once per process (both
// units of a package, with and without its tests, share the report), so
// a harness's second run gets the first one's report, unless it forgets
// the directory first: TestSubjects' reruns of a subject that failed
// returned its first run's report, and could not tell a flake.
func TestForget(t *testing.T) {
	if testing.Short() {
		t.Skip("records a test")
	}
	dir, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	report := func() *check.Report {
		var rep *check.Report
		for _, r := range analysistest.Run(t, dir, pecan.Analyzer, "./cmdtests") {
			if strings.HasSuffix(r.Pass.Pkg.Path(), ".test") {
				continue
			}
			res, ok := r.Result.(*pecan.Result)
			if !ok || res.Report == nil {
				t.Fatalf("%s: result %#v, want a dynamic report", r.Pass.Pkg.Path(), r.Result)
			}
			if rep != nil && res.Report != rep {
				t.Errorf("the package's two units got two reports, want one check")
			}
			rep = res.Report
		}
		if rep == nil {
			t.Fatal("no report")
		}
		return rep
	}
	pkg := filepath.Join(dir, "cmdtests")
	pecan.Forget(pkg) // whatever ran before in this process
	first := report()
	if again := report(); again != first {
		t.Errorf("second run: a new report; want the first one's (one check per process)")
	}
	pecan.Forget(pkg)
	if again := report(); again == first || again.Tests != 1 {
		t.Errorf("after Forget: the same report (%v) or %d tests checked; want a new check of the test", again == first, again.Tests)
	}
}
