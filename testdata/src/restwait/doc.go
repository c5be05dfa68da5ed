// Package restwait is a lost condition-variable broadcast to a listener
// that never stops (issue 29; kelindar/event's consumer.Listen without
// its group's ticker): the listener checks the pending count, an atomic
// that Publish raises outside the Cond's lock, then waits (hub.go:28);
// Publish broadcasts (hub.go:39). The test publishes once, a little after
// the listener began waiting, and polls for the event for a second.
//
// Known bug: deadlock. If Publish's count and broadcast fall between the
// listener's check and its Wait, the broadcast finds no waiter and
// nothing wakes the listener again: the event is never taken and the
// test fails ("listener got 0 events, want 1"). go test -race sees
// nothing: there is no data race.
//
// The listener is blocked in its Wait at the end of every run, the
// recorded one included, as restwaitfixed's is; here the replay leaves it
// in the very Wait whose broadcast was lost, which it got past in the
// recorded run, so the lost signal is reported (check's restingWaiter
// does not apply).
package restwait
