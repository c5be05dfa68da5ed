package check_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// lateSrc is a resource whose Act panics once it is closed: Act and
// Close are valid in one order only, and the driver skips, but only
// after its calls ran together (the reverse order is one of the three
// run after them). Recorded, the calls together did not panic (Act ran
// first); a replay that moves Close's write before Act's read panics.
const lateSrc = `package late

import "sync"

type Res struct {
	mu     sync.Mutex
	closed bool
	uses   int
}

func (r *Res) Act() {
	if r.closed {
		panic("use after close")
	}
	r.uses++
}

func (r *Res) Close() { r.closed = true }

func (r *Res) Uses() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.uses
}
`

const lateTest = `package late

import "testing"

func TestRes(t *testing.T) {
	r := &Res{}
	r.Act()
	r.Close()
	if r.Uses() != 1 {
		t.Fatal("uses")
	}
}
`

// TestDriverLateSkip: a driver that skips after its calls ran together
// (driver.LateSkipLog) is not predicted from. With the oracle run first,
// as before issue 30, it skipped before the calls ran together; replayed
// now, the schedule that closes the resource inside Act's check would
// panic, and the panic, not judged by the orders under a replay, would be
// reported as the race's effect, though calling Act after Close is
// outside the type's contract (the order Close, Act panics too).
func TestDriverLateSkip(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":       "module late\n\ngo 1.22\n",
		"late.go":      lateSrc,
		"late_test.go": lateTest,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Drivers: true, Run: "Act_Close"})
	if err != nil {
		t.Fatal(err)
	}
	ran := false
	for _, d := range rep.Drivers {
		if strings.Contains(d.Test, "Act_Close") {
			ran = true
			if !strings.Contains(d.Skipped, "panics in one order") {
				t.Errorf("the driver %s did not skip for the order: %q", d.Test, d.Skipped)
			}
		}
	}
	if !ran {
		t.Fatalf("no Act and Close driver recorded: %+v", rep.Drivers)
	}
	for _, f := range rep.Findings {
		if strings.Contains(f.Test, "Act_Close") {
			t.Errorf("predicted from a driver that skipped: %s %s: %s %q", f.Test, f.Anomaly.Key, f.Verdict.Verdict, f.Verdict.Consequence)
		}
	}
}
