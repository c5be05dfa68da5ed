// Package startinboxfixed is a real-module subject (pecanvet issue 26,
// session 52, branch cas52; anthdm/hollywood v1.0.5's actor Inbox,
// inbox.go:62-111, with a mutex-guarded queue for its ring buffer): Send
// queues a message and schedules its processing by
// CompareAndSwapInt32(&status, idle, running) (inbox.go:39); Start moves
// the status from stopped to starting by CAS (inbox.go:75), sets the
// handler, swaps the status to idle (inbox.go:77) and schedules itself
// what was queued.
//
// Nothing should be reported. In TestRestart a Send to the stopped inbox
// whose CAS falls between Start's CAS and its swap (av WRW on
// Inbox.status, inbox.go:75, 39, 77; or 75, 39, 39, Start's own
// schedule) reads "starting" and fails, as it failed in the recorded run
// on "stopped", the value Stop stored before Start began: its message
// stays queued and Start's schedule hands it over, as in the serial
// order with the Send first. A failed compare-and-swap returns one bit
// and writes nothing, and its expected value (idle) is neither the value
// before the unit nor the one the replay showed it fail on, so the Send
// behaves as before the Start (static/depend's `failedAsBefore`, fed by
// check's `beforeUnits`). Before session 52 it was reported as an
// intermediate state at inbox.go:75 (the value read at inbox.go:39
// decides its branch): hollywood's inbox.go:101 av of trial 33. In
// TestSendThenRestart the Send that swapped in the recorded run fails on
// "starting" when moved into Start's window, and that replay diverges.
//
// Unlike hollywood, a process goroutine holds the mutex run throughout
// (session 54): Stop does not wait for a running process goroutine, so a
// Stop and Start while one is still finishing started a second one beside
// it, a real overlap that TestSendThenRestart's check saw when a replay
// held the first one (session 53's CI: "two process goroutines ran at
// once", reported at inbox.go:75). startinbox keeps that shape.
package startinboxfixed
