// Package heaptimerfixed is a real-module subject (pecanvet issue 26,
// session 53, branch timer53; antlabs/timer v0.1.4's min-heap timer,
// min_heap.go, and its Test_Reset "min heap reset" subtest, trial 34's
// min_heap.go:80 av and asv): a heap of pending callbacks under one
// mutex; Run loops `for { select { … } }` on its time.Timer and on adds,
// and each process() pops the due nodes and starts their callbacks. Stop
// checks and removes its node in one critical section (heap.go:69-76).
//
// Nothing should be reported. TestFireWithinSleep starts two 1 ms timers,
// sleeps 20 ms, then, in the test's own critical section, stops both and
// checks that both callbacks ran. A schedule that runs the Run loop's
// Pop (heap.go:35) between the two Stops' reads of the heap (heap.go:70,
// av RWR) holds that loop past the test's sleep, so the callbacks have
// not run when the test counts them ("count = 0, want 2"). The serial
// order with the Pop after the test's unit fails the same way: the
// failure is the test's timing (check's sleepSame). Before session 53 it
// was reported: the Run call, open across the unit, had read the heap
// in an earlier process() and popped it in a later one, and check's
// straddles took that for one call split by the unit; a blocking point
// (the receive from the timer's channel between the two) now ends the
// loop's unit there, as it ends every unit predict builds.
// TestStopPending's Stop is one critical section: an AfterFunc of
// another goroutine comes before or after it whole.
package heaptimerfixed
