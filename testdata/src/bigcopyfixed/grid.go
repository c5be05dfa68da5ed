package bigcopyfixed

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
	g.cells[r][c] = v
}

// Snapshot returns a copy of the cells.
func (g *Grid) Snapshot() [64][64]int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cells
}
