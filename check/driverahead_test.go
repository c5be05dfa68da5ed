package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/pattern"
)

// TestDriversRecordedAhead: a generated driver whose candidate the
// package's own tests' first runs did not hold in two goroutines is
// recorded while those tests' replays and perturbed recordings run, not
// after them (pond: its six drivers took 1.1 s after the tests' phase),
// and that recording is the one checked: the driver is recorded once and
// its lost update still found.
func TestDriversRecordedAhead(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module ctr\n\ngo 1.22\n",
		"ctr.go": `package ctr

import (
	"sync"
	"time"
)

// Counter counts. Add loses an update when another Add runs in its
// sleep; its test calls it from one goroutine only.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Add() {
	v := c.n
	time.Sleep(20 * time.Millisecond)
	c.n = v + 1
}

func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
`,
		"ctr_test.go": `package ctr

import "testing"

func TestSerial(t *testing.T) {
	var c Counter
	c.Add()
	c.Add()
	if c.N() != 2 {
		t.Fatal(c.N())
	}
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	var progress lockedBuffer
	rep, err := Run(context.Background(), Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Drivers: true, Run: "^TestSerial$|Add_Add$", Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(progress.String(), "\n")
	find := func(sub string) int {
		for i, l := range lines {
			if strings.Contains(l, sub) {
				return i
			}
		}
		return -1
	}
	ahead := find("recording 1 generated driver ahead")
	phase := find("work units charged (this phase's limit") // the own tests' phase ends
	if ahead < 0 || phase < 0 || ahead > phase {
		t.Errorf("the driver's recording ahead at progress line %d, the tests' phase ending at %d: want it started before\n%s", ahead, phase, progress.String())
	}
	if n := strings.Count(progress.String(), "Counter_Add_Add: recording"); n != 1 {
		t.Errorf("the driver recorded %d times, want once:\n%s", n, progress.String())
	}
	found := false
	for _, f := range rep.Findings {
		found = found || (f.Reproduced() && strings.Contains(f.Test, "Counter_Add_Add"))
	}
	if !found {
		t.Errorf("the driver's race not reproduced: %+v", rep.Findings)
	}
}
