// Package apachequeue is a Go version of the Apache web server queue code of
// the AVFilter paper (Figure 2): a listener goroutine (T1) accepts a
// connection, hands it to a worker through a condition-variable queue (lines
// 2-5: lock, q[index++] = &item, signal, unlock) and updates the
// connection's state (lines 1R/1W: tmp = item; item = tmp + 1); a worker
// goroutine (T2) pops it (lines 6-9) and marks it handled (line 10: *pop =
// 2).
//
// Known bug: atomicity violation (RWW on Conn.state) and data race. Unlike
// Figure 2, this listener pushes the connection before it updates the state:
// the read at queue.go:57 and the write at queue.go:58 come after the push
// at queue.go:36. The worker's write at queue.go:64, made after it popped
// the connection, can then land between them, and the listener's stale write
// overwrites "handled" with "accepted" (TestHandOff fails: state 1, want 2).
// AVFilter's data constraint (the pop at queue.go:49 must read index written
// by the push) does not exclude this schedule, because the push precedes 1R.
//
// go test -race flags it in a single run (the listener's update comes after
// its unlock).
package apachequeue
