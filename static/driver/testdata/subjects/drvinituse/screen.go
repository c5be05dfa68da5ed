// Package drvinituse is tcell's simulation screen in small: Init sets
// the screen up holding no lock, and every test calls it first on the
// screen it has just made (through a helper or not), so no driver calls
// Init beside Fini or Resize; Resize, which forgets the lock, is driven
// beside Fini. Grid's Init is called by a test after
// another method too: its drivers stay.
package drvinituse

import "sync"

// Screen is a terminal.
type Screen interface {
	// Init initializes the screen for use.
	Init() error
	Fini()
	Resize(w, h int)
}

type sim struct {
	mu   sync.Mutex
	w, h int
	evch chan int
}

// NewSim makes a simulated screen; Init sets it up.
func NewSim() Screen { return &sim{} }

func (s *sim) Init() error {
	s.evch = make(chan int, 10)
	s.w, s.h = 80, 25
	return nil
}

func (s *sim) Fini() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w, s.h = 0, 0
}

// Resize forgets the lock: its drivers beside Fini stay.
func (s *sim) Resize(w, h int) {
	s.w, s.h = w, h
}

// Grid is a grid whose Init a test also calls on a grid in use.
type Grid struct {
	mu    sync.Mutex
	cells []int
}

// NewGrid makes a grid.
func NewGrid() *Grid { return &Grid{} }

// Init clears the grid to n cells.
func (g *Grid) Init(n int) { g.cells = make([]int, n) }

// Set sets a cell.
func (g *Grid) Set(i, v int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if i < len(g.cells) {
		g.cells[i] = v
	}
}
