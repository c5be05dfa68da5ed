package arraylist

import (
	"slices"
	"sync"
)

// List is a synchronized slice-backed list.
type List[T any] struct {
	mu   sync.Mutex
	data []T
}

// Of returns a list holding vs.
func Of[T any](vs ...T) *List[T] { return &List[T]{data: slices.Clone(vs)} }

// Add appends v.
func (l *List[T]) Add(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.data = append(l.data, v)
}

// Get returns element i.
func (l *List[T]) Get(i int) T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.data[i]
}

// RemoveAt removes and returns element i.
func (l *List[T]) RemoveAt(i int) T {
	l.mu.Lock()
	defer l.mu.Unlock()
	v := l.data[i]
	l.data = slices.Delete(l.data, i, i+1) // want "data race on "
	return v
}

// Len returns the number of elements.
func (l *List[T]) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.data)
}

// Slice returns a copy of the elements.
func (l *List[T]) Slice() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.data)
}

// Iterator walks the list. It is not synchronized: the caller must keep the
// list from changing while it iterates.
type Iterator[T any] struct {
	l *List[T]
	i int
}

// Iterator returns an iterator positioned before the first element.
func (l *List[T]) Iterator() *Iterator[T] { return &Iterator[T]{l: l} }

// HasNext reports whether Next has an element to return.
func (it *Iterator[T]) HasNext() bool { return it.i < len(it.l.data) } // want "atomicity violation on "

// Next returns the next element.
func (it *Iterator[T]) Next() T {
	v := it.l.data[it.i]
	it.i++
	return v
}

// AddAll appends every element of src to l.
func (l *List[T]) AddAll(src *List[T]) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for it := src.Iterator(); it.HasNext(); {
		l.data = append(l.data, it.Next())
	}
}
