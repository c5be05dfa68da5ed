package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/pattern"
)

// TestShort: with Short the tests run with -test.short, recorded and
// replayed alike, as go test -short runs them. The race is in the long
// test's own goroutines, which skips itself under testing.Short(): checked
// without Short it is reproduced; with Short the test is skipped and
// nothing is found.
func TestShort(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module soak\n\ngo 1.22\n",
		"soak.go": `package soak

import "sync"

// Total adds n from two goroutines without a lock.
func Total(n int) int {
	var wg sync.WaitGroup
	t := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				t++
			}
		}()
	}
	wg.Wait()
	return t
}

// Locked adds under a lock.
func Locked(n int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	t := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			t += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	return t
}
`,
		"soak_test.go": `package soak

import "testing"

func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	Total(3)
}

func TestQuick(t *testing.T) {
	if Locked(2) != 4 {
		t.Fatal("sum")
	}
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	for _, short := range []bool{false, true} {
		rep, err := Run(context.Background(), Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Short: short})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range rep.Findings {
			if f.Reproduced() {
				got = append(got, f.Test+": "+f.Anomaly.Pattern.Name)
			}
		}
		soak := strings.Contains(strings.Join(got, "\n"), "TestSoak")
		if soak == short {
			t.Errorf("Short %v: reproduced %q; want TestSoak's race only without Short", short, got)
		}
	}
}
