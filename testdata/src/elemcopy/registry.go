package elemcopy

import "sync"

// Entry is one registered name and its hit count.
type Entry struct {
	Name string
	Hits int
}

// Registry counts hits per entry.
type Registry struct {
	mu      sync.Mutex
	entries []Entry
}

// Hit counts one hit of entry i.
func (r *Registry) Hit(i int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// The variable is named after its first recorded access, which depends
	// on the schedule of the recorded run: either name is the same race.
	r.entries[i].Hits++ // want "data race on (Entry\\.Hits|\\[\\]Entry_elem)"
}

// Snapshot returns a copy of the entries.
func (r *Registry) Snapshot() []Entry {
	out := make([]Entry, len(r.entries))
	copy(out, r.entries)
	return out
}
