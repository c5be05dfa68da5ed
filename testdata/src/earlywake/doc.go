// Package earlywake is a Go idiom subject after github.com/reugn/go-quartz
// v0.15.2's execution loop (pecanvet issue 26): a scheduler loop reads the
// job queue, which has a mutex of its own, only to work out how long to
// sleep (Size, then Head: one job but no head gives a tick of 0, as
// go-quartz's calculateNextTick does), and on the timer's firing fire takes
// the scheduler's lock and runs the head job. Retag takes the head job out
// of the queue and puts it back relabelled (due time unchanged) under the
// scheduler's lock, then wakes the loop, as go-quartz's PauseJob does.
//
// Known bug: an atomicity violation on queue.jobs. The loop's Size
// (sched.go:24, one job) and Head (sched.go:30, none) fall around and
// between Retag's Remove (sched.go:40) and Push (sched.go:47); the loop arms
// its timer at 0 and fire runs the job at once. fire trusts the wake-up (a
// timer never fires before its duration) and does not look at the due
// time; its own reads hold the scheduler's lock, so they see the queue after
// Retag and are no violation of their own: the job runs early because of the
// stale value, through the wake time alone. The test queues the job due in
// an hour and fails ("job ran 1h0m0s before its due time"). The stale
// value reaches only timer.Reset: this subject keeps a rule "a value that
// only decides when a goroutine wakes is not used" from being added
// (go-quartz is safe only because its handler, validateJob, checks the due
// time again under the lock the writer holds).
//
// go test -race flags nothing: every access holds the queue's mutex.
package earlywake
