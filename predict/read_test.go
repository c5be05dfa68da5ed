package predict

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
)

func TestReadPrefix(t *testing.T) {
	tr := gen.Large(gen.LargeOptions{Events: 1000, Seed: 3})
	path := filepath.Join(t.TempDir(), "t.trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteBinary(f, tr); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, cut, err := ReadPrefix(path, 100)
	if err != nil || !cut || len(got.Events) != 100 {
		t.Fatalf("max 100: err %v, cut %v, %d events", err, cut, len(got.Events))
	}
	got, cut, err = ReadPrefix(path, 1000)
	if err != nil || cut || len(got.Events) != 1000 {
		t.Fatalf("max 1000: err %v, cut %v, %d events", err, cut, len(got.Events))
	}
}

// TestReadPrefixGoroutines: a trace naming more goroutines than the bound
// is cut before the event that would name one more; the goroutine table
// holds those named, renumbered, and the events still check.
func TestReadPrefixGoroutines(t *testing.T) {
	tr := gen.Large(gen.LargeOptions{Events: 1000, Seed: 3})
	path := filepath.Join(t.TempDir(), "t.trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteBinary(f, tr); err != nil {
		t.Fatal(err)
	}
	f.Close()
	all, _, err := readPrefix(path, 0, 1<<20, 0, 0)
	if err != nil || len(all.Goroutines) < 3 {
		t.Fatalf("err %v, %d goroutines", err, len(all.Goroutines))
	}
	got, cut, err := readPrefix(path, 0, 2, 0, 0)
	if err != nil || !cut || len(got.Goroutines) != 2 || len(got.Events) == 0 || len(got.Events) >= len(all.Events) {
		t.Fatalf("max 2 goroutines: err %v, cut %v, %d goroutines, %d of %d events", err, cut, len(got.Goroutines), len(got.Events), len(all.Events))
	}
	if err := got.Check(); err != nil {
		t.Fatal(err)
	}
	for i, e := range got.Events {
		w := all.Events[i]
		if got.Goroutines[e.G] != all.Goroutines[w.G] || e.Op != w.Op || e.Site != w.Site {
			t.Fatalf("event %d: %s %v, want %s %v", i, got.Goroutines[e.G], e.Op, all.Goroutines[w.G], w.Op)
		}
	}
	// The next event names a third goroutine.
	w := all.Events[len(got.Events)]
	named := map[string]bool{got.Goroutines[0]: true, got.Goroutines[1]: true}
	third := !named[all.Goroutines[w.G]] || w.Op.Object() == trace.ObjGoroutine && !named[all.Goroutines[w.Obj]]
	if !third {
		t.Errorf("cut before event %d (%s %v), which names no new goroutine", len(got.Events), all.Goroutines[w.G], w.Op)
	}
}

// TestReadPrefixSized: the events and objects counts a caller passes only
// size the event slice and the object table: with the right counts, wrong
// ones or none, the trace read is the same; with the right ones, each is
// made once.
func TestReadPrefixSized(t *testing.T) {
	tr := gen.Large(gen.LargeOptions{Events: 5000, Seed: 5})
	path := filepath.Join(t.TempDir(), "t.trace")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.WriteBinary(f, tr); err != nil {
		t.Fatal(err)
	}
	f.Close()
	want, wantCut, err := ReadPrefix(path, 3000)
	if err != nil {
		t.Fatal(err)
	}
	full, _, err := ReadPrefix(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	n, objs := len(tr.Events), len(full.Objects) // the names the file defines
	for _, events := range []int{n, 10, 2 * n, 0} {
		for _, objects := range []int{objs, 3, 2 * objs, 0} {
			got, cut, err := ReadPrefixSized(path, 3000, events, objects)
			if err != nil || cut != wantCut || !reflect.DeepEqual(got, want) {
				t.Fatalf("events %d, objects %d: err %v, cut %v (want %v), same trace %v", events, objects, err, cut, wantCut, reflect.DeepEqual(got, want))
			}
			if events >= 3000 && cap(got.Events) != 3000 {
				t.Errorf("events %d: capacity %d, want the bound 3000", events, cap(got.Events))
			}
		}
	}
	all, _, err := ReadPrefixSized(path, 0, n, objs)
	if err != nil || len(all.Events) != n || cap(all.Events) != n {
		t.Fatalf("no bound: err %v, %d events, capacity %d, want %d", err, len(all.Events), cap(all.Events), n)
	}
	// With the right count of objects, the table is made once.
	if len(all.Objects) != objs || cap(all.Objects) != objs {
		t.Errorf("objects: %d names, capacity %d, want %d", len(all.Objects), cap(all.Objects), objs)
	}
}
