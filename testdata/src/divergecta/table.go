package divergecta

import "sync"

// Entry is the state kept for one key.
type Entry struct{ uses int }

// Table creates one Entry per key on first use and counts the creations.
type Table struct {
	mu      sync.Mutex
	m       map[string]*Entry
	created int
}

// Use creates the entry of key k unless it exists, then counts one use.
func (t *Table) Use(k string) {
	t.mu.Lock()
	e := t.m[k] // want "atomicity violation on map"
	t.mu.Unlock()
	if e == nil {
		e = &Entry{}
		t.mu.Lock()
		t.m[k] = e
		t.created++
		t.mu.Unlock()
	}
	t.mu.Lock()
	t.m[k].uses++
	t.mu.Unlock()
}

// Created returns how many entries were created.
func (t *Table) Created() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.created
}
