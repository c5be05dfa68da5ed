package elevatorfixed

import (
	"maps"
	"slices"
	"sync"
)

// Building holds the calls pressed on its floors.
type Building struct {
	mu      sync.Mutex
	pending []int       // floors with a pending call, oldest first
	served  map[int]int // floor -> number of lift visits
}

// NewBuilding returns a building without calls.
func NewBuilding() *Building { return &Building{served: make(map[int]int)} }

// Call presses the call button on floor.
func (b *Building) Call(floor int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = append(b.pending, floor)
}

// serveNext claims the oldest pending call and records its service, in
// one critical section.
func (b *Building) serveNext() (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pending) == 0 {
		return 0, false
	}
	floor := b.pending[0]
	b.pending = slices.Delete(b.pending, 0, 1)
	b.served[floor]++
	return floor, true
}

// Served returns how many times each floor was served.
func (b *Building) Served() map[int]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.served)
}

// Lift is one elevator car.
type Lift struct {
	b     *Building
	floor int
}

// NewLift returns a lift of b waiting on the ground floor.
func NewLift(b *Building) *Lift { return &Lift{b: b} }

// ServeNext serves the oldest pending call; it reports false if there is
// none.
func (l *Lift) ServeNext() bool {
	f, ok := l.b.serveNext()
	if !ok {
		return false
	}
	l.floor = f
	return true
}
