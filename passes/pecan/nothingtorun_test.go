package pecan_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pecanvet/pecanvet/passes/pecan"
)

// TestNothingToRun: a main package with no test file, and a library with
// none and no type a generated driver would drive, say "no test files" as
// the dynamic loop did, without loading and instrumenting them (no build
// time); a command with a test is still checked, and so is a library
// without tests that gets drivers (notests, TestGeneratedDriver).
func TestNothingToRun(t *testing.T) {
	if testing.Short() {
		t.Skip("records a test")
	}
	dir, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range analysistest.Run(t, dir, pecan.Analyzer, "./cmdnotests", "./cmdtests", "./libnotests", "./notests") {
		path := r.Pass.Pkg.Path()
		if strings.HasSuffix(path, ".test") {
			continue // the test main
		}
		seen[path] = true
		res, ok := r.Result.(*pecan.Result)
		if !ok || !res.Dynamic || res.Report == nil {
			t.Fatalf("%s: result %#v, want a dynamic report", path, r.Result)
		}
		rep := res.Report
		switch path {
		case "drivertest/cmdnotests", "drivertest/libnotests":
			if rep.Time.Build != 0 || rep.Tests != 0 || !slices.Equal(res.Notes, []string{path + ": no test files"}) {
				t.Errorf("%s: build %v, %d tests, notes %q; want no build, no test, the note \"no test files\"", path, rep.Time.Build, rep.Tests, res.Notes)
			}
		case "drivertest/cmdtests":
			if rep.Time.Build == 0 || rep.Tests != 1 {
				t.Errorf("cmdtests: build %v, %d tests checked; want its test built and checked", rep.Time.Build, rep.Tests)
			}
		case "drivertest/notests":
			if rep.Time.Build == 0 || rep.DriversGenerated == 0 {
				t.Errorf("notests: build %v, %d drivers generated; want its drivers built and run", rep.Time.Build, rep.DriversGenerated)
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("units analyzed: %v, want the four packages", seen)
	}
}
