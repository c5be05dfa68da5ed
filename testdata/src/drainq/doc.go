// Package drainq is a real-module subject (pecanvet issue 26; the shape
// of a request/response over a shared FIFO, beside qmuntal/stateless's
// queued firing mode, which drains its queue): Call appends its request
// to the server's queue under the mutex (queue.go:15), then, in a
// critical section of its own, takes the queue's head (queue.go:27) and
// returns its answer as the reply to its own request.
//
// Known bug: an atomicity violation (WWR) on Server.queue: another
// goroutine's Call appends between Call's append and its take, or takes
// first, so Call takes another request's head and returns that one's
// answer: with no other goroutine the head is always its own request, so
// the take reads back another goroutine's value, not its own write.
// TestCall logs the mismatched reply and does not fail: it is reported by
// dependence (stale read-back), and static/depend's drainTake must not
// excuse it: Call takes the head once, in no loop that drains the queue.
//
// go test -race flags nothing: every access holds the server's mutex.
package drainq
