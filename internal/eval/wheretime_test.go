package main

import (
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/passes/pecan"
)

// TestWhereTime: a module's time is the packages' phases summed, and idle
// is vet's wall time when no check ran.
func TestWhereTime(t *testing.T) {
	st := []pecan.Stats{
		{Wall: 4, Build: 1, Record: 1.5, Predict: 0.5, Replay: 1, Records: 10, Replays: 3},
		{Wall: 2, Build: 0.5, Record: 0.5, Predict: 0.25, Replay: 0.5, Records: 4, Replays: 1},
	}
	got := whereTime(10*time.Second, st)
	want := "Where the time goes: vet 10.0 s; the checks of 2 packages 6.0 s: build 1.5 s, record 2.0 s (14 runs), predict 0.8 s, replay 1.5 s (4 runs); idle 4.0 s (no check running: type-checking, the go command, waiting)."
	if got != want {
		t.Errorf("whereTime:\n got %s\nwant %s", got, want)
	}
	if got := whereTime(time.Second, nil); got != "" {
		t.Errorf("no stats: %q", got)
	}
	// The build's parts, summed, when the stats have them.
	st[0].Load, st[0].Drivers, st[0].Instrument, st[0].Compile = 0.25, 0.125, 0.125, 0.5
	st[1].Load, st[1].Compile = 0.25, 0.25
	got = whereTime(10*time.Second, st)
	want = strings.Replace(want, "build 1.5 s,", "build 1.5 s (load 0.5 s, drivers 0.1 s, instrument 0.1 s, go test -c 0.8 s),", 1)
	if got != want {
		t.Errorf("whereTime with the build's parts:\n got %s\nwant %s", got, want)
	}
	// Packages checked in parallel may take more than vet's wall time.
	if got := whereTime(time.Second, st); got == "" || !strings.Contains(got, "idle 0.0 s") {
		t.Errorf("parallel checks: %q", got)
	}
}

// TestWhereTimeSpan: with each check's end time, idle is vet's wall time
// outside the union of the checks' spans, not vet's wall less their sum
// (0 once two checks overlap).
func TestWhereTimeSpan(t *testing.T) {
	st := []pecan.Stats{
		{Wall: 4, Build: 4, End: 1004}, // [1000, 1004]
		{Wall: 2, Build: 2, End: 1003}, // [1001, 1003], inside the first
		{Wall: 1, Build: 1, End: 1007}, // [1006, 1007]
		{},                             // a fast-path unit: no time, no span
	}
	if span, ok := checkSpan(st); !ok || span != 5 {
		t.Errorf("checkSpan = %v, %v; want 5, true", span, ok)
	}
	got := whereTime(8*time.Second, st)
	for _, want := range []string{"the checks of 4 packages 7.0 s (some check running during 5.0 s):", "idle 3.0 s"} {
		if !strings.Contains(got, want) {
			t.Errorf("whereTime: %s\nwant it to contain %q", got, want)
		}
	}
	// A check without End (an older build's stats): the sum, as before.
	st[2].End = 0
	if _, ok := checkSpan(st); ok {
		t.Errorf("checkSpan: ok with a check lacking End")
	}
	if got := whereTime(8*time.Second, st); !strings.Contains(got, "7.0 s: build") || !strings.Contains(got, "idle 1.0 s") {
		t.Errorf("whereTime without End: %s", got)
	}
}

// TestToolRSS: pecanvet's own peak is the largest over the packages'
// tool processes.
func TestToolRSS(t *testing.T) {
	st := []pecan.Stats{{MaxRSS: 100 << 20}, {MaxRSS: 300 << 20}, {}}
	if tool := toolRSS(st); tool != 300<<20 {
		t.Errorf("toolRSS = %s, want 300 MiB", mib(tool))
	}
}
