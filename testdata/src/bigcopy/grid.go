package bigcopy

import "sync"

// Grid is a board of cells.
type Grid struct {
	mu    sync.Mutex
	cells [64][64]int
}

// Set sets cell (r, c) to v.
func (g *Grid) Set(r, c, v int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cells[r][c] = v // want "data race on \\[64\\]int_elem"
}

// Snapshot returns a copy of the cells.
func (g *Grid) Snapshot() [64][64]int {
	// The copy reads every cell without the lock.
	return g.cells
}
