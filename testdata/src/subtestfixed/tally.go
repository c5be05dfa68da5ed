package subtestfixed

// Tally counts events.
type Tally struct {
	name string
	n    int
}

// Add counts one event.
func (t *Tally) Add() {
	t.n++
}

// N returns the count.
func (t *Tally) N() int { return t.n }
