package check_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// TestFailedCheckedLast: a test whose batch recording failed waits for a
// normal run (and its uninstrumented build) before its prediction, so it
// is checked after the package's other tests, which do not wait behind
// it; its own check is unchanged (its note), and so is the others' (the
// race of TestRacy, after it in the file, is still reported).
func TestFailedCheckedLast(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":  "module failedlast\n\ngo 1.22\n",
		"last.go": "package failedlast\n\nimport \"sync\"\n\nvar (\n\tmu sync.Mutex\n\tn  int\n\tm  int\n)\n\n// Add adds d under mu.\nfunc Add(d int) { mu.Lock(); n += d; mu.Unlock() }\n\n// Bump adds d without a lock.\nfunc Bump(d int) { m += d }\n",
		"last_test.go": `package failedlast

import "testing"

func TestBroken(t *testing.T) {
	done := make(chan bool)
	go func() { Add(1); done <- true }()
	Add(1)
	<-done
	t.Fatal("broken")
}

func TestQuiet(t *testing.T) {
	done := make(chan bool)
	go func() { Add(1); done <- true }()
	Add(1)
	<-done
}

func TestRacy(t *testing.T) {
	done := make(chan bool)
	go func() { Bump(1); done <- true }()
	Bump(1)
	<-done
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Perturb: 0})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"failedlast TestQuiet", "failedlast TestRacy", "failedlast TestBroken"}
	if !slices.Equal(rep.Checked, want) {
		t.Errorf("checked %q, want %q", rep.Checked, want)
	}
	var note bool
	for _, n := range rep.Notes {
		if n.Test == "TestBroken" && strings.Contains(n.Text, "fails in a normal run too") {
			note = true
		}
	}
	if !note {
		t.Errorf("TestBroken: no note that it fails in a normal run too; notes: %v", rep.Notes)
	}
	var racy bool
	for _, f := range rep.Findings {
		racy = racy || f.Test == "TestRacy" && slices.Contains(f.ObjectNames(), "failedlast.m")
	}
	if !racy {
		for _, f := range rep.Findings {
			t.Logf("%s %v", f.Test, f.ObjectNames())
		}
		t.Errorf("TestRacy's race on m not reported; findings: %+v", rep.Findings)
	}
}
