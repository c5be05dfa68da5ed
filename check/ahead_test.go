package check

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
)

// lockedBuffer is a progress writer for recordings that print from
// several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// pausingModule is a module whose two tests each run a parallel subtest
// that sleeps two seconds: no batch vouches for them (record.RecordBatch).
// Each subtest appends "start NAME DIR" and "end NAME" to the module's
// file log, DIR the batch's trace directory ("-" when alone); with a file
// sidebyside in the module, it ends only once the other test started
// ("end NAME alone" after 20 s without).
func pausingModule(t *testing.T) (string, *record.Recorder) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"m.go": `package m

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() { c.mu.Lock(); c.n++; c.mu.Unlock() }
`,
		"m_test.go": `package m

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func logLine(s string) {
	f, err := os.OpenFile("log", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	f.WriteString(s + "\n")
	f.Close()
}

func sub(t *testing.T, name string) {
	t.Run("slow", func(t *testing.T) {
		t.Parallel()
		dir := os.Getenv("PECANVET_TRACE_DIR")
		if dir == "" {
			dir = "-"
		}
		logLine(fmt.Sprintf("start %s %s", name, dir))
		c := &Counter{}
		done := make(chan bool)
		go func() { c.Inc(); done <- true }()
		c.Inc()
		<-done
		if _, err := os.Stat("sidebyside"); err != nil {
			time.Sleep(2 * time.Second)
			logLine("end " + name)
			return
		}
		// Side by side, the other test's start is in the log already or
		// comes soon; one after the other, it never comes while this one
		// waits. (A fixed sleep was too short at load 45.)
		other := "start TestP1 "
		if name == "TestP1" {
			other = "start TestP2 "
		}
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if b, _ := os.ReadFile("log"); strings.Contains(string(b), other) {
				logLine("end " + name)
				return
			}
		}
		logLine("end " + name + " alone")
	})
}

func TestP1(t *testing.T) { sub(t, "TestP1") }
func TestP2(t *testing.T) { sub(t, "TestP2") }
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := record.NewBuild(context.Background(), record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return dir, b
}

// TestRecordAheadAloneEarly: a test the batch declines is recorded alone
// as soon as the batch declines it, not when the check reaches it: taking
// the second test's recording first finds the first's recording alone
// started already.
func TestRecordAheadAloneEarly(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	_, b := pausingModule(t)
	var progress lockedBuffer
	opt := Options{Timeout: time.Minute, Progress: &progress}
	ra, err := newRecordAhead(context.Background(), b, "example.com/m", []string{"TestP1", "TestP2"}, t.TempDir(), opt, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer ra.stop()
	if r := ra.get(1); !r.Passed || r.Events == 0 || r.Batched {
		t.Errorf("TestP2: passed %v, %d events, batched %v; want a passing recording alone", r.Passed, r.Events, r.Batched)
	}
	if !strings.Contains(progress.String(), "TestP1: recording alone") {
		t.Errorf("TestP1's recording alone had not started when TestP2's ended; progress:\n%s", progress.String())
	}
	if r := ra.get(0); !r.Passed || r.Events == 0 || r.Batched {
		t.Errorf("TestP1: passed %v, %d events, batched %v; want a passing recording alone", r.Passed, r.Events, r.Batched)
	}
}

// TestRecordPerturbedPaused: tests whose first runs paused for t.Parallel
// are recorded perturbed alone, without a batch first (it could not vouch
// for them), and side by side.
func TestRecordPerturbedPaused(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	dir, b := pausingModule(t)
	tests := []string{"TestP1", "TestP2"}
	firsts := []record.Test{
		{Name: "TestP1", Output: "=== RUN   TestP1\n=== RUN   TestP1/slow\n=== PAUSE TestP1/slow\n"},
		{Name: "TestP2", Output: "=== RUN   TestP2\n=== RUN   TestP2/slow\n=== PAUSE TestP2/slow\n"},
	}
	if err := os.WriteFile(filepath.Join(dir, "sidebyside"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	for ti := range tests {
		os.MkdirAll(filepath.Join(scratch, fmt.Sprintf("t%d", ti)), 0o755)
	}
	runs := recordPerturbed(context.Background(), b, "example.com/m", tests, firsts, []int{0, 1}, scratch, 1, Options{Timeout: time.Minute})
	for ti, n := range tests {
		if r := runs[ti]; !r.Passed || r.Events == 0 {
			t.Errorf("%s: passed %v, %d events; want a passing recording", n, r.Passed, r.Events)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if len(lines) != 4 {
		t.Fatalf("log: %q, want each test's start and end once (no batch)", lines)
	}
	for _, l := range lines {
		if f := strings.Fields(l); f[0] == "start" && f[2] != "-" {
			t.Errorf("log: %q: a batch ran the test (trace dir %s)", l, f[2])
		}
	}
	if !strings.HasPrefix(lines[1], "start ") {
		t.Errorf("log: %q: the recordings ran one after the other, want side by side", lines)
	}
}
