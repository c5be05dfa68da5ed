package check_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// TestBuildParts: the build's time is split into its parts (loading,
// drivers, instrumenting, go test -c), each measured and together within
// the build: -pecan.stats and eval show where a package's fixed cost goes
// (issue 30).
func TestBuildParts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and records")
	}
	dir, err := filepath.Abs("testdata/suite")
	if err != nil {
		t.Fatal(err)
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Run: "^TestSequential$", Anomalies: pats, Drivers: true})
	if err != nil {
		t.Fatal(err)
	}
	tm := rep.Time
	if tm.Load <= 0 || tm.Drivers <= 0 || tm.Instrument <= 0 || tm.Compile <= 0 {
		t.Errorf("build parts: load %v, drivers %v, instrument %v, compile %v; want each measured", tm.Load, tm.Drivers, tm.Instrument, tm.Compile)
	}
	if sum := tm.Load + tm.Drivers + tm.Instrument + tm.Compile; sum > tm.Build {
		t.Errorf("build parts sum to %v, more than the build's %v", sum, tm.Build)
	}
}
