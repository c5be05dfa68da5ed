package check_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// TestFixedPathRecordedAgain: tests that each keep a file at one fixed
// path in their package's directory while they run (diskv's test-data/,
// pogreb's test.db) pass in a normal run, one after the other; recorded
// in parallel processes they met each other's file. Once a process has
// changed the directory, the others run in mirrors of their own
// (testbin.Private), and a test whose recording failed that way is
// recorded again there: no test "fails only under instrumentation".
func TestFixedPathRecordedAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	var tests strings.Builder
	tests.WriteString(`package fixed

import (
	"os"
	"testing"
	"time"
)

func hold(t *testing.T) {
	f, err := os.OpenFile("shared.db", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	time.Sleep(150 * time.Millisecond)
	if err := os.Remove("shared.db"); err != nil {
		t.Fatal(err)
	}
	Add(1)
}
`)
	for i := range 8 {
		fmt.Fprintf(&tests, "\nfunc TestHold%d(t *testing.T) { hold(t) }\n", i)
	}
	for name, src := range map[string]string{
		"go.mod":        "module fixed\n\ngo 1.22\n",
		"fixed.go":      "package fixed\n\nimport \"sync\"\n\nvar (\n\tmu sync.Mutex\n\tn  int\n)\n\n// Add adds d under mu.\nfunc Add(d int) { mu.Lock(); n += d; mu.Unlock() }\n",
		"fixed_test.go": tests.String(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rep.Notes {
		if strings.Contains(n.Text, "fails") {
			t.Errorf("note: %s", n.Text)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "shared.db")); err == nil {
		t.Errorf("shared.db left in the package's directory")
	}
}
