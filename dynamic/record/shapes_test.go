package record_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
)

// TestShapes records the test shapes go test runs: a package whose only
// tests are benchmarks (each run once), examples with output, a TestMain
// of the package's own that returns without os.Exit, a test that reads
// testdata/ relative to the package directory, and parallel subtests.
// Every one records both goroutines' events and passes.
func TestShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.24\n",
		"counter.go":       counter,
		"bench/counter.go": counter[:len("package ")] + "bench" + counter[len("package counter"):],
		"bench/counter_test.go": `package bench

import "testing"

func BenchmarkInc(b *testing.B) {
	c := &Counter{}
	b.RunParallel(func(pb *testing.PB) {
		c.Inc() // every goroutine, however pb.Next shares out the b.N calls
		for pb.Next() {
			c.Inc()
		}
	})
}
`,
		"counter_test.go": `package counter

import (
	"fmt"
	"os"
	"testing"
)

var setUp bool

func TestMain(m *testing.M) {
	setUp = true
	m.Run() // Go 1.15: returning is fine, the testing package exits
}

` + workSrc + `
func TestData(t *testing.T) {
	if !setUp {
		t.Fatal("TestMain did not run")
	}
	b, err := os.ReadFile("testdata/n.txt")
	if err != nil || string(b) != "2\n" {
		t.Fatalf("testdata/n.txt: %q, %v", b, err)
	}
	work(&Counter{})
}

func TestSub(t *testing.T) {
	c := &Counter{}
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c.Inc()
		})
	}
}

func ExampleCounter() {
	c := &Counter{}
	work(c)
	fmt.Println(c.n)
	// Output: 2
}

func BenchmarkNotRun(b *testing.B) {}
`,
		"testdata/n.txt": "2\n",
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := map[string][]string{
		"example.com/m":       {"TestData", "TestSub", "ExampleCounter"},
		"example.com/m/bench": {"BenchmarkInc"},
	}
	tmp := t.TempDir()
	for pkg, names := range want {
		got, err := b.Tests(ctx, pkg, "")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, names) {
			t.Errorf("%s: tests %q, want %q", pkg, got, names)
		}
		for _, name := range got {
			r := b.RecordTest(ctx, pkg, name, filepath.Join(tmp, name+".trace"), time.Minute)
			if !r.Passed || r.Truncated != "" {
				t.Errorf("%s %s: passed %v, truncated %q\n%s", pkg, name, r.Passed, r.Truncated, r.Output)
			}
			if r.Goroutines < 2 || r.Shared == 0 {
				t.Errorf("%s %s: %d goroutines, %d shared locations, want ≥2 and >0\n%s", pkg, name, r.Goroutines, r.Shared, r.Output)
			}
		}
	}
}
