// Package app is a counter in a go.work workspace, without a lock (its bug).
package app

// Tally counts events.
type Tally struct{ n int }

// Add counts one event. Its read and write of t.n are not atomic: two
// goroutines adding at once can lose an update (and race).
func (t *Tally) Add() { t.n++ }

// N is the count.
func (t *Tally) N() int { return t.n }
