package subtest

// Tally counts events.
type Tally struct {
	name string
	n    int
}

// Add counts one event.
func (t *Tally) Add() {
	t.n++ // want "data race on Tally\\.n" "atomicity violation on Tally\\.n"
}

// N returns the count.
func (t *Tally) N() int { return t.n }
