// Package drainqfixed is drainq with the reply kept apart from the
// queue: Call appends its request (queue.go:16), then drains the queue,
// serving every request at its head until it finds it empty (queue.go:29,
// :32), as qmuntal/stateless's queued Fire does, and reads its own
// answer from a map keyed by request (queue.go:22).
//
// Nothing should be reported. It is silent by design: another Call's
// append or take between Call's append and a take of its drain is the
// queue's contract (whoever drains serves whatever is at the head, and
// every request is served once, in order), not a stale read-back: Call
// appended to the tail, takes heads until none is left, and never takes
// a head for its own (static/depend's drainTake; stateless's modes.go:66
// av of session 22's trial 7 was this).
package drainqfixed
