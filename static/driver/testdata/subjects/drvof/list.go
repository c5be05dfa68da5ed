package drvof

import "sync"

// List is a synchronized list, built with Of.
type List[T any] struct {
	mu   sync.Mutex
	data []T
}

// Of returns a list holding vs.
func Of[T any](vs ...T) *List[T] { return &List[T]{data: append([]T(nil), vs...)} }

// AddAll appends src's elements to l.
func (l *List[T]) AddAll(src *List[T]) {
	src.mu.Lock()
	items := append([]T(nil), src.data...)
	src.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.data = append(l.data, items...)
}

// Ints returns 0..n-1: a function of basic arguments whose result is of
// no named type, which the constructor search must pass over (it once
// panicked there, in go/types, on go-quartz).
func Ints(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
