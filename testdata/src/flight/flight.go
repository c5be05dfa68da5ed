package flight

import "sync"

// Group runs calls by key, shows which keys are pending, and counts the
// calls done.
type Group struct {
	mu      sync.Mutex
	pending map[string]bool
	done    int
}

// New returns an empty group.
func New() *Group { return &Group{pending: map[string]bool{}} }

// Do runs fn as the call for key. The lock is released while fn runs, so
// that other callers see the key pending (as singleflight's Do does).
func (g *Group) Do(key string, fn func()) {
	g.mu.Lock()
	g.pending[key] = true
	n := g.done // want "atomicity violation on "
	g.mu.Unlock()

	fn()

	g.mu.Lock()
	delete(g.pending, key)
	g.done = n + 1
	g.mu.Unlock()
}

// Pending returns the number of calls in progress.
func (g *Group) Pending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.pending)
}

// Done returns the number of calls done.
func (g *Group) Done() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.done
}
