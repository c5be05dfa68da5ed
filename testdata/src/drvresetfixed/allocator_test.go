package drvresetfixed

import "testing"

func TestAllocator(t *testing.T) {
	a := NewAllocator(8)
	x, y := a.Allocate(4), a.Allocate(4)
	x[0], y[0] = 1, 2
	if x[0] != 1 {
		t.Fatal("two allocations share a byte")
	}
	p := NewPool(1)
	p.Put(a)
	if b := p.Get(8); b != a || len(b.Allocate(8)) != 8 {
		t.Fatal("the pool did not hand back the allocator, rewound")
	}
}

func TestArena(t *testing.T) {
	ar := NewArena()
	if len(ar.Alloc(4)) != 4 {
		t.Fatal("Alloc(4) is not 4 bytes")
	}
	ar.Trim()
	if len(ar.Alloc(64)) != 64 {
		t.Fatal("Alloc(64) is not 64 bytes")
	}
}
