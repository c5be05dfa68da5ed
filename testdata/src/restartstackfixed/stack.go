package restartstackfixed

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

// Push links a new node on top until a CAS of the head swaps, or the
// stack is closed. A failed CAS goes back through the loop's condition,
// which reads the flag afresh; the round left only the new node's link,
// which the next round stores again before its CAS.
func (s *Stack) Push(v int) bool {
	e := &node{value: v}
	for !s.Closed() {
		h := s.head.Load()
		e.next.Store(h)
		if s.head.CompareAndSwap(h, e) {
			return true
		}
	}
	return false
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
