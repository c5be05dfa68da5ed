package rt

import (
	"reflect"
	"sync"
	"testing"
)

type partInner struct{ A, B int }

type partBox[T any] struct{ V T }

type partOuter struct {
	mu    sync.Mutex
	In    partInner
	Arr   [2]partInner
	Ints  [2]int
	Anon  struct{ X int }
	Box   partBox[int]
	Scalr string
}

// TestPartNames: a whole-value copy names each field part as an access of
// that field does (the instrumenter's "Owner.field"), whatever ran first;
// elements of arrays of scalars are left to the copy's site.
func TestPartNames(t *testing.T) {
	outer := reflect.TypeFor[partOuter]()
	offs, names := partsOf(outer)
	want := []string{
		"partInner.A", "partInner.B",
		"partInner.A", "partInner.B", "partInner.A", "partInner.B",
		"", "",
		"struct.X",
		"partBox.V",
		"partOuter.Scalr",
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("names = %q, want %q", names, want)
	}
	if len(offs) != len(names) {
		t.Fatalf("%d offsets, %d names", len(offs), len(names))
	}
	if got := outer.Field(6).Offset; offs[len(offs)-1] != got {
		t.Errorf("last offset %d, want %d", offs[len(offs)-1], got)
	}
	if _, n := partsOf(reflect.TypeFor[sync.Mutex]()); len(n) != 1 || n[0] != "" {
		t.Errorf("mutex value parts %q, want one unnamed", n)
	}
}
