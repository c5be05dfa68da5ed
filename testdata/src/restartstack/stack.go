package restartstack

import "sync/atomic"

// Stack is a lock-free stack that refuses pushes once closed
// (amirylm/lockfree v0.0.4's LLStack, closing instead of bounding).
type Stack struct {
	head   atomic.Pointer[node]
	closed atomic.Bool
}

type node struct {
	value int
	next  atomic.Pointer[node]
}

// Closed reports whether the stack refuses pushes.
func (s *Stack) Closed() bool { return s.closed.Load() }

// Close makes the stack refuse later pushes.
func (s *Stack) Close() { s.closed.Store(true) }

// Push links a new node on top and stores it as the head, unless the
// stack is closed: the fixed twin's round with a plain store for its
// CAS. It acts on the head it loaded even when another Push stored a
// new one since, and that Push's node is lost.
func (s *Stack) Push(v int) bool {
	if s.Closed() {
		return false
	}
	e := &node{value: v}
	h := s.head.Load() // want "atomicity violation on Stack\\.head"
	e.next.Store(h)
	s.head.Store(e)
	return true
}

// Pop takes the top value, if any.
func (s *Stack) Pop() (int, bool) {
	for {
		h := s.head.Load()
		if h == nil {
			return 0, false
		}
		if s.head.CompareAndSwap(h, h.next.Load()) {
			return h.value, true
		}
	}
}
