package trace

import (
	"strconv"
	"testing"
)

// TestInternerReserve: a table reserved for n names, before or between
// names, gives every name the index an unreserved one gives, finds each
// again, and grows neither the table nor the index while the n come.
func TestInternerReserve(t *testing.T) {
	names := make([]string, 3000)
	for i := range names {
		names[i] = "x#" + strconv.Itoa(i%2500) // the last 500 again
	}
	var plain Tables
	pin := NewInterner(&plain)
	want := make([]int32, len(names))
	for i, s := range names {
		want[i], _ = pin.Intern(TabObject, s)
	}
	for _, at := range []int{0, 1, 700} {
		var tab Tables
		in := NewInterner(&tab)
		for i, s := range names {
			if i == at {
				in.Reserve(TabObject, 2500-at)
				if cap(tab.Objects) != 2500 {
					t.Fatalf("reserved at %d: capacity %d, want 2500", at, cap(tab.Objects))
				}
			}
			slots := len(in.idx[TabObject].slots)
			got, added := in.Intern(TabObject, s)
			if got != want[i] || added != (i < 2500) {
				t.Fatalf("reserved at %d: %q: index %d added %v, want %d %v", at, s, got, added, want[i], i < 2500)
			}
			if i >= at && len(in.idx[TabObject].slots) != slots {
				t.Fatalf("reserved at %d: the index grew at name %d", at, i)
			}
		}
		if len(tab.Objects) != 2500 || cap(tab.Objects) != 2500 {
			t.Errorf("reserved at %d: %d names, capacity %d, want 2500", at, len(tab.Objects), cap(tab.Objects))
		}
		for i, s := range names {
			if got, ok := in.Lookup(TabObject, s); !ok || got != want[i] {
				t.Errorf("reserved at %d: Lookup(%q) = %d %v, want %d", at, s, got, ok, want[i])
			}
		}
	}
}
