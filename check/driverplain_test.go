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

// TestFailingDriverNote: a generated driver of a package without tests
// (paho's paho/log) that fails while recorded is run uninstrumented
// too, as any failed test: its package's plain build takes the drivers
// (testbin's Options.Extra), where go test -c wrote no binary before
// ("fails instrumented (the uninstrumented build failed: … no such
// file)"). The driver's lost update shows in a normal run as well: it is
// still the interleaving's, not a failure of the test's own.
func TestFailingDriverNote(t *testing.T) {
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
// sleep: the driver's concurrent calls always do.
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
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Drivers: true, Run: "Add_Add"})
	if err != nil {
		t.Fatal(err)
	}
	var fails []string
	for _, n := range rep.Notes {
		if n.Kind == note.Fails {
			fails = append(fails, n.Text)
		}
	}
	// Its replays' failures are still credited to the anomaly, but
	// for one failing as the recorded run did.
	if len(fails) != 1 || !strings.Contains(fails[0], "fails in a normal run too (a generated driver") || !strings.Contains(fails[0], "a replay failing the same way") {
		t.Errorf("the failed driver's notes %q, want one that it fails in a normal run too, as a generated driver (all: %q)", fails, rep.Notes)
	}
}
