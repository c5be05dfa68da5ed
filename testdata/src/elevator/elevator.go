package elevator

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

func (b *Building) nextCall() (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pending) == 0 { // want "atomicity violation on "
		return 0, false
	}
	return b.pending[0], true
}

func (b *Building) claim(floor int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if i := slices.Index(b.pending, floor); i >= 0 {
		b.pending = slices.Delete(b.pending, i, i+1)
	}
}

func (b *Building) arrive(floor int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.served[floor]++
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
	f, ok := l.b.nextCall()
	if !ok {
		return false
	}
	l.b.claim(f)
	l.floor = f
	l.b.arrive(f)
	return true
}
