package check

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
)

// TestOneGoroutineNotRead: a recording in which one goroutine did
// everything and the test ended (or stopped at the event cap) is not read
// back for prediction: nothing is read, nothing queued, its cost is still
// charged. One that hung, timed out, or had two goroutines active is read
// (here the file is missing, so the read's note shows it was tried).
func TestOneGoroutineNotRead(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "TestX.trace")
	const unreadable = "unreadable trace"
	for _, c := range []struct {
		name string
		rt   record.Test
		read bool   // the trace is read (the missing file's note)
		note string // another note expected, if any
	}{
		{"sequential", record.Test{Events: 5000, Goroutines: 2, Active: 1, Passed: true}, false, ""},
		{"failed", record.Test{Events: 5000, Goroutines: 2, Active: 1}, false, ""},
		{"capped", record.Test{Events: 1 << 20, Goroutines: 2, Active: 1, Truncated: "cut at 1048576 events (PECANVET_MAX_EVENTS)"}, false, "recording stopped at 1048576 events"},
		{"two active", record.Test{Events: 5000, Goroutines: 3, Active: 2, Passed: true}, true, ""},
		{"hung", record.Test{Events: 5000, Goroutines: 2, Active: 1, Truncated: "hung: every goroutine blocked for 5s (chan receive)"}, true, ""},
		{"timed out", record.Test{Events: 5000, Goroutines: 2, Active: 1, TimedOut: true, Truncated: "timed out after 2m0s"}, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := &testCheck{pkg: "p", test: "TestX", rep: &Report{}, seen: map[string]bool{}, dir: t.TempDir()}
			q := newReplayQueue(context.Background(), nil, "p", time.Time{}, Options{}, tc.seen)
			if qd := tc.predict(q, c.rt, missing); qd != nil {
				t.Fatalf("queued %d predictions from a missing trace", len(qd.preds))
			}
			var notes []string
			for _, n := range tc.rep.Notes {
				notes = append(notes, n.String())
			}
			all := strings.Join(notes, "\n")
			if got := strings.Contains(all, unreadable); got != c.read {
				t.Errorf("read the trace: %v, want %v (notes %q)", got, c.read, notes)
			}
			if c.note != "" && !strings.Contains(all, c.note) {
				t.Errorf("notes %q, want one with %q", notes, c.note)
			}
			if !c.read && q.spent != predictCost(c.rt.Events, 0) {
				t.Errorf("charged %d, want %d (the reading's cost)", q.spent, predictCost(c.rt.Events, 0))
			}
		})
	}
}
