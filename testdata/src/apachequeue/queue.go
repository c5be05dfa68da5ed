package apachequeue

import "sync"

// Connection states.
const (
	New      = 0
	Accepted = 1
	Handled  = 2
)

// Conn is an accepted connection.
type Conn struct{ state int }

// State returns the connection's state.
func (c *Conn) State() int { return c.state }

// Queue hands connections from the listener to the workers.
type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	q     [8]*Conn
	index int
}

// NewQueue returns an empty queue.
func NewQueue() *Queue {
	q := new(Queue)
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Push queues c (Figure 2, lines 2-5).
func (q *Queue) Push(c *Conn) {
	q.mu.Lock()
	q.q[q.index] = c
	q.index++
	q.cond.Signal()
	q.mu.Unlock()
}

// Pop waits for a connection and dequeues it (Figure 2, lines 6-9).
func (q *Queue) Pop() *Conn {
	q.mu.Lock()
	for q.index == 0 {
		q.cond.Wait()
	}
	q.index--
	c := q.q[q.index]
	q.mu.Unlock()
	return c
}

// Listen hands c to the workers and marks it accepted (thread T1).
func Listen(q *Queue, c *Conn) {
	q.Push(c)
	tmp := c.state    // want "data race on Conn\\.state"
	c.state = tmp + 1 // want "data race on Conn\\.state"
}

// Work handles one connection (thread T2).
func Work(q *Queue) {
	c := q.Pop()
	c.state = Handled
}
