package vectoraddall

import "sync"

// Vector is a synchronized growable array.
type Vector[T any] struct {
	mu       sync.Mutex
	data     []T
	modCount int
}

// Add appends x.
func (v *Vector[T]) Add(x T) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.modCount++
	v.data = append(v.data, x)
}

// Size returns the number of elements.
func (v *Vector[T]) Size() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.data) // want "atomicity violation on "
}

// Get returns element i.
func (v *Vector[T]) Get(i int) T {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.data[i]
}

// RemoveAllElements empties the vector.
func (v *Vector[T]) RemoveAllElements() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.modCount++
	clear(v.data)
	v.data = v.data[:0]
}

// Slice returns a copy of the elements.
func (v *Vector[T]) Slice() []T {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]T(nil), v.data...)
}

// AddAll appends all elements of c and reports whether v changed.
func (v *Vector[T]) AddAll(c *Vector[T]) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.modCount++
	numNew := c.Size()
	// ....... possible interference ....
	for i := range numNew {
		v.data = append(v.data, c.Get(i))
	}
	return numNew != 0
}

// Stack is a last-in first-out stack built on Vector.
type Stack[T any] struct {
	Vector[T]
}

// Push pushes x.
func (s *Stack[T]) Push(x T) { s.Add(x) }

// Pop removes and returns the top element.
func (s *Stack[T]) Pop() T {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modCount++
	n := len(s.data) - 1
	x := s.data[n]
	s.data = s.data[:n]
	return x
}
