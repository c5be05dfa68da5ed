// Package janitorfixed is janitor fixed: each tick takes the count and
// resets it in one critical section (take). What is left is silent by
// design: after the sweep, the loop reads the backlog for its statistics
// in a second critical section (backlog), and a Touch can fall between
// the two (an atomicity violation on Janitor.dirty that replay
// reproduces) without changing any value the loop goes on to use. After
// that replay the test waits 150 ms for the next tick: a replay once took
// that wait for a hang (every goroutine waiting, only a timer to wake
// one) and reported the interleaving with "the test hangs"; a hang that
// ends when the schedule lets go and the timer fires is no effect.
// Nothing should be reported.
package janitorfixed
