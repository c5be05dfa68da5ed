package check_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// waitSrc is a mailbox whose Put waits for a Take: called one after the
// other, Put then Take never returns, and nothing could wake it.
const waitSrc = `package mailbox

import "sync"

type Box struct {
	mu sync.Mutex
	ch chan int
	n  int
}

func New() *Box { return &Box{ch: make(chan int)} }

func (b *Box) Put(v int) {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
	b.ch <- v
}

func (b *Box) Take() int {
	v := <-b.ch
	b.n-- // unlocked: a candidate for the drivers
	return v
}
`

const waitTest = `package mailbox

import "testing"

func TestBox(t *testing.T) {
	if New() == nil {
		t.Fatal("nil")
	}
}
`

// TestDriverQuietSkip: a driver whose calls one after the other wait for
// another call skips as soon as the recorder sees nothing can wake them,
// and its note says so and when, not only that they did not return
// within the whole bound (goconcurrentqueue's six drivers read as six
// 5-second waits; each took half a second).
func TestDriverQuietSkip(t *testing.T) {
	if testing.Short() {
		t.Skip("records")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":      "module mailbox\n\ngo 1.22\n",
		"box.go":      waitSrc,
		"box_test.go": waitTest,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Drivers: true})
	if err != nil {
		t.Fatal(err)
	}
	told := regexp.MustCompile(`does not return within 5s: it waits for another call \(told after \d+(\.\d+)?m?s: every goroutine waited for another, no timer due\)`)
	n := 0
	for _, d := range rep.Drivers {
		if told.MatchString(d.Skipped) {
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no driver skipped early with the note saying so: %+v", rep.Drivers)
	}
}
