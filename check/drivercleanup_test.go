package check_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/pattern"
)

// cleanupSrc is cmux's cMux as the SetReadTimeout driver saw it: a
// mutex (meant for concurrent use), an unlocked setter whose two calls
// store the same value, and an unlocked counter whose two calls lose an
// update.
const cleanupSrc = `package mux

import (
	"sync"
	"time"
)

type Mux struct {
	mu          sync.Mutex
	closed      bool
	readTimeout time.Duration
	n           int
}

func New() *Mux { return &Mux{} }

func (m *Mux) SetReadTimeout(d time.Duration) { m.readTimeout = d }

func (m *Mux) Add() {
	n := m.n
	m.n = n + 1
}

func (m *Mux) Count() int { return m.n }

func (m *Mux) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
}
`

// cleanupTest defers a leak check, as cmux's TestTimeout does, that the
// drivers copy into their cleanup. It fails in every process but the
// first to run its test: cmux's snapshot of every goroutine's stack
// found a replay's held goroutine "leaked" and not the recorded run's.
const cleanupTest = `package mux

import (
	"os"
	"sync"
	"testing"
	"time"
)

var (
	stampOnce sync.Once
	later     bool
)

func leakCheck(t *testing.T) func() {
	stampOnce.Do(func() {
		stamp := "ran-" + t.Name()
		_, err := os.Stat(stamp)
		later = err == nil
		os.WriteFile(stamp, nil, 0o644)
	})
	return func() {
		if later {
			t.Errorf("Leaked goroutine: goroutine 4 [select]")
		}
	}
}

func TestTimeout(t *testing.T) {
	defer leakCheck(t)()
	m := New()
	m.SetReadTimeout(500 * time.Millisecond)
	m.Close()
}

func TestAdd(t *testing.T) {
	defer leakCheck(t)()
	m := New()
	m.Add()
	if m.Count() != 1 {
		t.Fatal(m.Count())
	}
}
`

// TestDriverCleanupFailure: cmux's cmux.go:150 race (triage.md). The
// generated driver calling SetReadTimeout twice on one cMux failed in a
// replay by the leak check it copied from TestTimeout's defer, and the
// race of two writes of one value was reported with that failure for
// its effect. A failure the copied cleanup raises is not the calls'
// (static/driver's CleanupFailLog): the race is an interleaving without
// effect. The Add driver's lost update still fails its oracle, cleanup
// failure or not, and is reported.
func TestDriverCleanupFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir := t.TempDir()
	writeCleanup(t, dir, cleanupTest)
	rep := checkCleanup(t, dir, "all", "")
	set, lost := false, false
	for _, f := range rep.Findings {
		if !f.Reproduced() {
			continue
		}
		t.Logf("%s %s: effect %v, %q", f.Test, f.Anomaly.Key, f.Effect(), f.Verdict.Consequence)
		switch {
		case strings.Contains(f.Test, "SetReadTimeout_SetReadTimeout"):
			set = true
			if !f.WithoutEffect() || strings.Contains(f.Verdict.Consequence, "Leaked") {
				t.Errorf("the copied cleanup's failure is credited to the calls: %s %s: %q", f.Test, f.Anomaly.Key, f.Verdict.Consequence)
			}
		case strings.Contains(f.Test, "Add_Add") && f.Effect() && !f.WithoutEffect():
			// (Its consequence lists the cleanups' failures first.)
			lost = lost || strings.Contains(f.Verdict.Output, "Add and Add called together left Count() = 1")
		}
	}
	if !set {
		t.Errorf("the SetReadTimeout race was not reproduced")
	}
	if !lost {
		t.Errorf("the Add driver's lost update was not reported with its oracle's failure")
	}
}

// TestDriverCleanupFailsRecorded: a driver whose copied cleanup fails
// in its recorded run too (here in every process) is a passing run: no
// note that it "fails only under instrumentation", which cmux's
// SetReadTimeout driver got in one go vet run from its copied leak
// check, and the race is without effect.
func TestDriverCleanupFailsRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir := t.TempDir()
	writeCleanup(t, dir, strings.Replace(cleanupTest, "if later {", "if true {", 1))
	rep := checkCleanup(t, dir, "race", "SetReadTimeout")
	for _, n := range rep.Notes {
		if n.Kind == note.Fails && strings.Contains(n.Test, "SetReadTimeout") {
			t.Errorf("the copied cleanup's failure of the recording is noted: %s", n.Text)
		}
	}
	found := false
	for _, f := range rep.Findings {
		if f.Reproduced() && strings.Contains(f.Test, "SetReadTimeout_SetReadTimeout") {
			found = true
			if !f.WithoutEffect() {
				t.Errorf("the copied cleanup's failure is credited to the calls: %s: %q", f.Anomaly.Key, f.Verdict.Consequence)
			}
		}
	}
	if !found {
		t.Errorf("the SetReadTimeout race was not reproduced")
	}
}

func writeCleanup(t *testing.T, dir, test string) {
	t.Helper()
	for name, src := range map[string]string{
		"go.mod":      "module mux\n\ngo 1.22\n",
		"mux.go":      cleanupSrc,
		"mux_test.go": test,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkCleanup(t *testing.T, dir, patterns, run string) *check.Report {
	t.Helper()
	pats, _ := pattern.Builtin(patterns)
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Drivers: true, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
