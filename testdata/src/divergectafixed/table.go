package divergectafixed

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
	defer t.mu.Unlock()
	e := t.m[k]
	if e == nil {
		e = &Entry{}
		t.m[k] = e
		t.created++
	}
	e.uses++
}

// Created returns how many entries were created.
func (t *Table) Created() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.created
}
