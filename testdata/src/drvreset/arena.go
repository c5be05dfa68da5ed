package drvreset

// Arena allocates from one allocator at a time.
type Arena struct {
	cur *Allocator
}

// NewArena makes an arena.
func NewArena() *Arena {
	return &Arena{cur: NewAllocator(64)}
}

// Alloc hands out n bytes.
func (ar *Arena) Alloc(n int) []byte {
	return ar.cur.Allocate(n)
}

// Trim lets the arena reuse its memory while it serves.
func (ar *Arena) Trim() {
	ar.cur.Reset()
}
