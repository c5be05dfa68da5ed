package heaptimerfixed

import (
	"container/heap"
	"sync"
	"time"
)

// Node is a pending callback.
type Node struct {
	f     func()
	at    time.Time
	index int
	t     *Timer
}

type nodes []*Node

func (h nodes) Len() int           { return len(h) }
func (h nodes) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h nodes) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *nodes) Push(x any) {
	n := x.(*Node)
	n.index = len(*h)
	*h = append(*h, n)
}
func (h *nodes) Pop() any {
	old := *h
	n := old[len(old)-1]
	n.index = -1
	*h = old[:len(old)-1]
	return n
}

// Timer runs callbacks when they are due, from one goroutine (Run).
type Timer struct {
	mu   sync.Mutex
	h    nodes
	add  chan struct{}
	done chan struct{}
	tm   *time.Timer
}

// New returns a timer; start its Run in a goroutine.
func New() *Timer {
	return &Timer{add: make(chan struct{}, 1), done: make(chan struct{}), tm: time.NewTimer(time.Hour)}
}

// AfterFunc runs f in a goroutine of its own once d has passed.
func (t *Timer) AfterFunc(d time.Duration, f func()) *Node {
	n := &Node{f: f, at: time.Now().Add(d), t: t}
	t.mu.Lock()
	heap.Push(&t.h, n)
	t.mu.Unlock()
	select {
	case t.add <- struct{}{}:
	default:
	}
	return n
}

// Stop removes n if it has not fired.
func (n *Node) Stop() {
	t := n.t
	t.mu.Lock()
	if len(t.h) == 0 || n.index < 0 || n.index >= len(t.h) {
		t.mu.Unlock()
		return
	}
	heap.Remove(&t.h, n.index)
	t.mu.Unlock()
}

// process pops the due nodes, starts their callbacks and rearms the timer.
func (t *Timer) process() {
	t.mu.Lock()
	now := time.Now()
	for len(t.h) > 0 && now.After(t.h[0].at) {
		n := heap.Pop(&t.h).(*Node)
		go n.f()
	}
	next := time.Hour
	if len(t.h) > 0 {
		next = time.Until(t.h[0].at)
	}
	t.tm.Reset(next)
	t.mu.Unlock()
}

// Run is the timer's loop, until Close.
func (t *Timer) Run() {
	for {
		select {
		case <-t.tm.C:
			t.process()
		case <-t.add:
			t.process()
		case <-t.done:
			return
		}
	}
}

// Close ends Run.
func (t *Timer) Close() { close(t.done) }
