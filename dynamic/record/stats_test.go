package record

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestSharedLocations: a location counts when two goroutines access it
// and one of them writes; atomic accesses do not count.
func TestSharedLocations(t *testing.T) {
	ev := func(g, obj int32, op trace.Op) trace.Event {
		return trace.Event{G: g, Op: op, Obj: obj, Site: trace.NoIndex}
	}
	tr := &trace.Trace{
		Tables: trace.Tables{Goroutines: []string{"g1", "g2"}, Objects: []string{"a", "b", "c", "d", "e"}},
		Events: []trace.Event{
			ev(0, 4, trace.Write), ev(1, 4, trace.Read), // shared, written
			ev(0, 1, trace.Write), ev(0, 1, trace.Read), // one goroutine's
			ev(0, 2, trace.Read), ev(1, 2, trace.Read), // read only
			ev(0, 3, trace.AtomicStore), ev(1, 3, trace.AtomicLoad), // atomic
		},
	}
	if n := SharedLocations(tr); n != 1 {
		t.Errorf("SharedLocations = %d, want 1", n)
	}
}

// TestUnstarted: a goroutine forked in the trace with no event of its own
// is counted unstarted; one that began, or did anything, is not.
func TestUnstarted(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"main fork g1 @m.go:1\ng1 begin\ng1 write x @m.go:2\nmain fork g2 @m.go:3\nmain read x @m.go:4\n", 1},
		{"main fork g1 @m.go:1\nmain fork g2 @m.go:3\ng2 write x @m.go:2\n", 1},
		{"main fork g1 @m.go:1\ng1 begin\ng1 end @m.go:5\nmain join g1\n", 0},
		{"main fork g1 @m.go:1\nmain fork g2 @m.go:2\nmain read x @m.go:4\n", 2},
	} {
		path := filepath.Join(t.TempDir(), "t.trace")
		if err := os.WriteFile(path, []byte(trace.TextHeader+"\n"+c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		ti, err := traceStats(path)
		if err != nil {
			t.Fatal(err)
		}
		if ti.unstarted != c.want {
			t.Errorf("unstarted = %d, want %d, in\n%s", ti.unstarted, c.want, c.text)
		}
	}
}
