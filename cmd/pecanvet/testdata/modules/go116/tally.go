// Package tally is a counter in a module that declares go 1.16, without a lock (its bug).
package tally

// Tally counts events.
type Tally struct{ n int }

// Add counts one event. Its read and write of t.n are not atomic: two
// goroutines adding at once can lose an update (and race).
func (t *Tally) Add() { t.n++ }

// N is the count.
func (t *Tally) N() int { return t.n }

// Funcs returns closures over a loop variable: under go 1.16 they share it.
func Funcs() []func() int {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	return fs
}
