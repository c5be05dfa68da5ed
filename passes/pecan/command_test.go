package pecan_test

import (
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pecanvet/pecanvet/passes/pecan"
)

// TestCommandWithoutTests: a main package with no test file says "no test
// files" as the dynamic loop did, without loading and instrumenting it (no
// build time); one with a test is still checked.
func TestCommandWithoutTests(t *testing.T) {
	if testing.Short() {
		t.Skip("records a test")
	}
	dir, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range analysistest.Run(t, dir, pecan.Analyzer, "./cmdnotests", "./cmdtests") {
		path := r.Pass.Pkg.Path()
		if path != "drivertest/cmdnotests" && path != "drivertest/cmdtests" {
			continue // the test main
		}
		seen[path] = true
		res, ok := r.Result.(*pecan.Result)
		if !ok || !res.Dynamic || res.Report == nil {
			t.Fatalf("%s: result %#v, want a dynamic report", path, r.Result)
		}
		rep := res.Report
		switch path {
		case "drivertest/cmdnotests":
			if rep.Time.Build != 0 || rep.Tests != 0 || !slices.Equal(res.Notes, []string{"drivertest/cmdnotests: no test files"}) {
				t.Errorf("cmdnotests: build %v, %d tests, notes %q; want no build, no test, the note \"no test files\"", rep.Time.Build, rep.Tests, res.Notes)
			}
		case "drivertest/cmdtests":
			if rep.Time.Build == 0 || rep.Tests != 1 {
				t.Errorf("cmdtests: build %v, %d tests checked; want its test built and checked", rep.Time.Build, rep.Tests)
			}
		}
	}
	if len(seen) != 2 {
		t.Errorf("units analyzed: %v, want both commands", seen)
	}
}
