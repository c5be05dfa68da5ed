package pecan

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/pecanvet/pecanvet/check"
)

// TestWriteStats: with -stats set, each analyzed unit appends one JSON line
// with what was found and checked; dependency units (SkipDynamic) append
// nothing.
func TestWriteStats(t *testing.T) {
	if Analyzer.Flags.Lookup("stats") == nil || ForReplay(false).Flags.Lookup("stats") == nil {
		t.Fatal("no -stats flag")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "stats.jsonl")
	old := statsFile
	statsFile = out
	defer func() { statsFile = old }()

	fset := token.NewFileSet()
	src := filepath.Join(dir, "a.go")
	f, err := parser.ParseFile(fset, src, "package a\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	pass := &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Pkg: types.NewPackage("example.com/a", "a")}
	before := float64(time.Now().UnixMilli()) / 1000
	writeStats(pass, &Result{Dynamic: true, Notes: []string{"n1"}, Report: &check.Report{Listed: 5, Tests: 3,
		Time:             check.Timing{Build: 4 * time.Second, Load: time.Second, Drivers: 500 * time.Millisecond, Instrument: 250 * time.Millisecond, Compile: 2 * time.Second},
		DriversGenerated: 3, Drivers: []check.DriverRun{{Test: "TestPecanvetDriver1"}, {Test: "TestPecanvetDriver2", Skipped: "no usable receiver"}}}})
	writeStats(pass, &Result{Skipped: "no concurrency in the package or its tests (fast path)"})
	SkipDynamic = true
	writeStats(pass, &Result{Skipped: "dependency"})
	SkipDynamic = false

	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var got []Stats
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		var s Stats
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		got = append(got, s)
	}
	if len(got) != 2 {
		t.Fatalf("got %d lines, want 2: %+v", len(got), got)
	}
	if s := got[0]; s.Package != "example.com/a" || s.Dir != dir || !s.Dynamic || s.TestsListed != 5 || s.TestsChecked != 3 || len(s.Notes) != 1 || s.Skipped != "" ||
		s.DriversGenerated != 3 || s.DriversRun != 1 || len(s.DriverSkips) != 1 || s.DriverSkips[0] != "no usable receiver" {
		t.Errorf("first line = %+v", s)
	}
	if s := got[0]; s.Build != 4 || s.Load != 1 || s.Drivers != 0.5 || s.Instrument != 0.25 || s.Compile != 2 {
		t.Errorf("first line's build and its parts = %v: load %v, drivers %v, instrument %v, compile %v; want 4: 1, 0.5, 0.25, 2", s.Build, s.Load, s.Drivers, s.Instrument, s.Compile)
	}
	if s := got[1]; s.Dynamic || s.Skipped == "" || s.TestsListed != 0 {
		t.Errorf("second line = %+v", s)
	}
	// When the line was written: with wall_s, the span the check ran.
	if after := float64(time.Now().UnixMilli()) / 1000; got[0].End < before || got[0].End > after {
		t.Errorf("end_unix = %v, want within [%v, %v]", got[0].End, before, after)
	}
	// The tool's own peak: this test process's, at least its heap.
	if peakRSS() > 0 && got[0].MaxRSS < 1<<20 {
		t.Errorf("max_rss = %d, want the process's peak resident set", got[0].MaxRSS)
	}
}
