package record

import (
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
