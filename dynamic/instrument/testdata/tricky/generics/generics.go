// Package generics exercises type parameters.
package generics

import (
	"cmp"
	"iter"
	"sync"
)

// Number is a constraint.
type Number interface {
	~int | ~int64 | ~float64
}

// Sum adds the elements of s.
func Sum[T Number](s []T) T {
	var total T
	for _, v := range s {
		total += v
	}
	return total
}

// Max returns the larger.
func Max[T cmp.Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

// List is a linked list.
type List[T any] struct {
	mu   sync.Mutex
	head *node[T]
	size int
}

type node[T any] struct {
	val  T
	next *node[T]
}

// Push adds v at the front.
func (l *List[T]) Push(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.head = &node[T]{val: v, next: l.head}
	l.size++
}

// All iterates over the list.
func (l *List[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for n := l.head; n != nil; n = n.next {
			if !yield(n.val) {
				return
			}
		}
	}
}

// Len returns the size.
func (l *List[T]) Len() int { return l.size }

// Cache is a generic map under a lock.
type Cache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// Get reads under the read lock.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

// Put writes.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[K]V)
	}
	c.m[k] = v
	c.mu.Unlock()
}

// Slices has type parameters with core types.
func Fill[S ~[]E, E any](s S, v E) S {
	for i := range s {
		s[i] = v
	}
	return s
}

// MapKeys collects keys of a map-typed type parameter.
func MapKeys[M ~map[K]V, K comparable, V any](m M) int {
	n := 0
	for range m {
		n++
	}
	m2 := m
	_ = m2
	return n
}

// Pipe sends the values through a channel of a type-parameter type.
func Pipe[C ~chan E, E any](c C, vs ...E) []E {
	go func() {
		for _, v := range vs {
			c <- v
		}
		close(c)
	}()
	var out []E
	for v := range c {
		out = append(out, v)
	}
	return out
}

// Pair is a generic struct with two fields.
type Pair[A, B any] struct {
	First  A
	Second B
}

// Swap returns the pair swapped.
func (p Pair[A, B]) Swap() Pair[B, A] { return Pair[B, A]{p.Second, p.First} }

// Seq counts to n.
func Seq(n int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := range n {
			if !yield(i, i*i) {
				return
			}
		}
	}
}

// Apply holds an instantiated generic function.
var Apply func(int) int

// Ident returns its argument.
func Ident[T any](v T) T { return v }

func one() int { return 1 }

// Instantiate assigns a generic function instantiated by its context.
func Instantiate() int {
	var n int
	Apply, n = Ident, one()
	return Apply(n + 1)
}
