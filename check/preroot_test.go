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

// TestInitGoroutineLetGo: a goroutine that package initialization starts
// (ants' default pool, whose clock goroutine ticks every 500 ms from init)
// wakes, in the test's recording, by the real clock, and its steps enter
// the trace (p1, trace.PreRoot). A replay runs the test at once on its
// virtual clock, and the goroutine's ticker, made before the replay, on
// the real one: it ticks a second after the process starts, long after
// the replay reaches its step. Named g2 like any root before, it held
// the schedule there ("g2 has not started (started outside instrumented
// code)") and check pruned every prediction whose prefix held its step:
// the test's race on n was not reported (the test's load of woken reads
// the goroutine's add: every schedule holds it). Now the replay lets it go and
// drops its steps, and the race is reproduced.
func TestInitGoroutineLetGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module initgo\n\ngo 1.22\n",
		"initgo.go": `package initgo

import (
	"sync/atomic"
	"time"
)

var woken atomic.Int64

// background starts a goroutine that a ticker wakes every second, as a
// pool's purger made by a package-level variable is.
func background() bool {
	tk := time.NewTicker(time.Second)
	go func() {
		for {
			<-tk.C
			woken.Add(1)
		}
	}()
	return true
}

var started = background()

var n int

// Racy adds 1 to n unguarded.
func Racy() { n++ }
`,
		"initgo_test.go": `package initgo

import (
	"testing"
	"time"
)

func TestRacy(t *testing.T) {
	time.Sleep(1200 * time.Millisecond) // the goroutine wakes meanwhile
	t.Logf("woken %d times", woken.Load())
	done := make(chan bool)
	go func() { Racy(); done <- true }()
	Racy()
	<-done
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Perturb: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if msg := f.Verdict.Message; strings.Contains(msg, "has not started") {
			t.Errorf("%s %s: %s: %s", f.Test, f.Anomaly.Key, f.Verdict.Verdict, msg)
		}
	}
	found := false
	for _, f := range rep.Reported() {
		if f.Anomaly.Pattern.Kind == "race" && strings.Contains(f.Anomaly.Key, "initgo.go:28") {
			found = true
		}
	}
	if !found {
		var got []string
		for _, f := range rep.Findings {
			got = append(got, f.Anomaly.Key+": "+f.Verdict.Verdict+": "+f.Verdict.Message)
		}
		t.Errorf("the race on n (initgo.go:28) not reported; findings: %q", got)
	}
}
