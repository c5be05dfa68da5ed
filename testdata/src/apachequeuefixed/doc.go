// Package apachequeuefixed is the fixed twin of package apachequeue: it is
// exactly the code of AVFilter Figure 2. The listener updates the
// connection's state (1R at queue.go:56, 1W at queue.go:57) before it pushes
// the connection (line 3 at queue.go:36); the worker can only pop it (line 8
// at queue.go:49) after the push and then writes the state (line 10 at
// queue.go:64).
//
// Nothing should be reported. This twin is the AVFilter false positive: an
// over-approximate predictor that ignores data constraints predicts the
// atomicity violation (1R, 10, 1W), but in that schedule the worker's pop
// reads index before the push wrote it, finds the queue empty and waits
// (AVFilter Lemma 1, case 1), so the schedule is infeasible; replaying it
// diverges. With Figure 2's order the listener's update also happens-before
// the worker's write through the mutex, so go test -race is clean.
package apachequeuefixed
