package linkedlist

type node[T any] struct {
	val        T
	prev, next *node[T]
}

// List is a doubly linked list. It is not safe for concurrent use.
type List[T any] struct {
	head, tail *node[T]
	size       int
}

// Of returns a list holding vs.
func Of[T any](vs ...T) *List[T] {
	l := new(List[T])
	for _, v := range vs {
		l.AddLast(v)
	}
	return l
}

// AddLast appends v.
func (l *List[T]) AddLast(v T) {
	n := &node[T]{val: v, prev: l.tail} // want "data race on List\\.tail" "atomicity violation on List\\.tail"
	if n.prev == nil {
		l.head = n
	} else {
		n.prev.next = n
	}
	l.tail = n // want "data race on List\\.tail"
	l.size++   // want "data race on "
}

// RemoveFirst removes and returns the first element.
func (l *List[T]) RemoveFirst() (T, bool) {
	n := l.head
	if n == nil {
		var zero T
		return zero, false
	}
	l.head = n.next
	if l.head == nil {
		l.tail = nil
	} else {
		l.head.prev = nil
	}
	l.size--
	return n.val, true
}

// Len returns the number of elements.
func (l *List[T]) Len() int { return l.size }

// Slice returns the elements from head to tail.
func (l *List[T]) Slice() []T {
	var out []T
	for n := l.head; n != nil; n = n.next {
		out = append(out, n.val)
	}
	return out
}
