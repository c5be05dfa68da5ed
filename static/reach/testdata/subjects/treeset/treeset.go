package treeset

import (
	"cmp"
	"sync"
)

type node[T cmp.Ordered] struct {
	val         T
	left, right *node[T]
}

// TreeSet is a synchronized sorted set.
type TreeSet[T cmp.Ordered] struct {
	mu    sync.Mutex
	root  *node[T]
	size  int
	OnAdd func(T) // called, without the lock held, after an element is added
}

// insert links v into the tree and reports whether it was new.
func (t *TreeSet[T]) insert(v T) bool {
	p := &t.root
	for *p != nil {
		switch c := cmp.Compare(v, (*p).val); {
		case c < 0:
			p = &(*p).left
		case c > 0:
			p = &(*p).right
		default:
			return false
		}
	}
	*p = &node[T]{val: v} // want "atomic-set-serializability violation on (\\*TreeSet\\.insert\\.p|node\\.left), TreeSet\\.size"
	return true
}

// Add adds v and reports whether it was new.
func (t *TreeSet[T]) Add(v T) bool {
	t.mu.Lock()
	added := t.insert(v)
	t.mu.Unlock()
	if !added {
		return false
	}
	if t.OnAdd != nil {
		t.OnAdd(v)
	}
	t.mu.Lock()
	t.size++
	t.mu.Unlock()
	return true
}

// Len returns the number of elements.
func (t *TreeSet[T]) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.size
}

// ToSlice returns the elements in increasing order.
func (t *TreeSet[T]) ToSlice() []T {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]T, t.size)
	i := 0
	var walk func(n *node[T])
	walk = func(n *node[T]) {
		if n == nil {
			return
		}
		walk(n.left)
		out[i] = n.val
		i++
		walk(n.right)
	}
	walk(t.root)
	return out
}
