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

// TestRecordedAgainBeforePlainBuild: the package's first test whose
// recording failed, alone in its process, is recorded again before its
// uninstrumented build: ExampleFlaky fails only its first run and passes
// recorded again, so nothing runs it uninstrumented (no build of the plain
// binary for it). ExampleBroken fails every run:
// recorded again, it still fails, and the normal run still tells its
// note, as before.
func TestRecordedAgainBeforePlainBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	runs := filepath.Join(t.TempDir(), "runs")
	tests := fmt.Sprintf(`package flaky

import (
	"fmt"
	"os"
)

// run counts the runs in a file and reports whether it is the first.
func run() bool {
	f, err := os.OpenFile(%q, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	info, _ := f.Stat()
	fmt.Fprintln(f, os.Args)
	f.Close()
	return info.Size() == 0
}

func ExampleFlaky() {
	first := run()
	done := make(chan bool)
	go func() { Add(1); done <- true }()
	Add(1)
	<-done
	if first {
		fmt.Println("first")
	} else {
		fmt.Println("again")
	}
	// Output: again
}

func ExampleBroken() {
	done := make(chan bool)
	go func() { Add(1); done <- true }()
	Add(1)
	<-done
	fmt.Println("no")
	// Output: yes
}
`, runs)
	for name, src := range map[string]string{
		"go.mod":        "module flaky\n\ngo 1.22\n",
		"flaky.go":      "package flaky\n\nimport \"sync\"\n\nvar (\n\tmu sync.Mutex\n\tn  int\n)\n\n// Add adds d under mu.\nfunc Add(d int) { mu.Lock(); n += d; mu.Unlock() }\n",
		"flaky_test.go": tests,
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
	var broken bool
	for _, n := range rep.Notes {
		switch {
		case n.Test == "ExampleFlaky":
			t.Errorf("note: %s %s", n.Test, n.Text)
		case n.Test == "ExampleBroken" && strings.Contains(n.Text, "fails in a normal run too"):
			broken = true
		}
	}
	if !broken {
		t.Errorf("ExampleBroken: no note that it fails in a normal run too; notes: %v", rep.Notes)
	}
	b, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	// The uninstrumented binary is the instrumented one's name with
	// ".plain" (testbin); the other runs are recordings and replays.
	if strings.Contains(string(b), ".plain ") {
		t.Errorf("ExampleFlaky ran uninstrumented; its runs:\n%s", b)
	}
}
