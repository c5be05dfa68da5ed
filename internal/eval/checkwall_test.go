package main

import (
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/check"
)

// TestParseCheckTime: the checkwall section reads pecanvet check's own
// account of its time from the line check.Timing prints; a change of that
// format must show here, not as zeros in EVAL.md.
func TestParseCheckTime(t *testing.T) {
	tm := check.Timing{Wall: 3549 * time.Millisecond, Build: 3257 * time.Millisecond, Record: 20 * time.Millisecond,
		Predict: 10 * time.Millisecond, Replay: 343 * time.Millisecond, Records: 2, Replays: 5}
	var r checkWallRow
	r.parseCheckTime([]byte("check: subjects/account: recording 2 tests in 1 processes\npecanvet check: " + tm.String() + "\n"))
	if r.build != tm.Build || r.record != tm.Record || r.predict != tm.Predict || r.replay != tm.Replay || r.records != 2 || r.replays != 5 {
		t.Errorf("parsed %+v from %q", r, tm.String())
	}
}

func TestRenderCheckWall(t *testing.T) {
	rows := []*checkWallRow{
		{name: "a", check: &run{Wall: 4 * time.Second}, race: &run{Wall: 2 * time.Second}, build: 3 * time.Second},
		{name: "b", check: &run{Wall: 6 * time.Second}, race: &run{Wall: 2 * time.Second}, build: 5 * time.Second},
	}
	got := renderCheckWall(rows, nil)
	for _, want := range []string{"| all subjects, summed | 10.0 s | 4.0 s | 2.5x |", "median / 90th percentile / worst | | | 3.0x / 3.0x / 3.0x |", "build 8.0 s (80%)", "| b | 6.0 s |"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}
