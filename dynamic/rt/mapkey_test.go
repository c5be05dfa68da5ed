package rt

import (
	"testing"
	"unsafe"
)

type name string
type id uint16
type pairOf struct{ v any }
type pair struct {
	a int
	b string
}

// TestKeyHash: keys that are one map key hash equal whatever type carries
// them to KeyHash (the instrumented code passes an untyped constant key as
// its default type, and a named key type's value as that type), different
// keys of one type hash apart, and no hash is 0 (the whole map).
func TestKeyHash(t *testing.T) {
	was := active.Swap(true)
	defer active.Store(was)
	var p *int
	x, y := new(int), new(int)
	same := [][]any{
		{1, int64(1), uint8(1), id(1), 1.0, float32(1), complex(1, 0)}, // m[1] where the key is a uint16, a float64, ...
		{'a', byte('a'), int32(97)},
		{"k", name("k")},
		{nil, p, (*string)(nil), unsafe.Pointer(nil)}, // m[nil] of a pointer-keyed map
		{0.0, -0.0, 0},
		{pair{1, "x"}, pair{1, "x"}},
		{x, x},
		{uint64(1 << 63), float64(1 << 63)},
		{-1, int8(-1), -1.0},
		{true, true},
	}
	for _, keys := range same {
		h0 := KeyHash(keys[0])
		for _, k := range keys {
			h := KeyHash(k)
			if h == 0 {
				t.Errorf("KeyHash(%#v) = 0", k)
			}
			if h != h0 {
				t.Errorf("KeyHash(%#v) = %d, KeyHash(%#v) = %d: one key, two hashes", keys[0], h0, k, h)
			}
		}
	}
	apart := []any{0, 1, 2, -1, 1.5, "", "k", "l", name("l2"), true, false, pair{1, "x"}, pair{2, "x"}, x, y, [2]int{1, 2}}
	seen := map[int64]any{}
	for _, k := range apart {
		h := KeyHash(k)
		if o, dup := seen[h]; dup {
			t.Errorf("KeyHash(%#v) = KeyHash(%#v) = %d", k, o, h)
		}
		seen[h] = k
	}
	// A key Go cannot hash: the whole map, no panic (the access panics).
	if h := KeyHash(any([]int{1})); h != 0 {
		t.Errorf("KeyHash of a slice = %d, want 0", h)
	}
	if h := KeyHash(pairOf{[]int{1}}); h != 0 {
		t.Errorf("KeyHash of a struct holding a slice in an interface = %d, want 0", h)
	}
	active.Store(false)
	if h := KeyHash("k"); h != 0 {
		t.Errorf("KeyHash when not recording = %d, want 0", h)
	}
}
