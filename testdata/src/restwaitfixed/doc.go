// Package restwaitfixed is restwait with its ticker (kelindar/event's
// group.Process): every 500 µs until Close it broadcasts to the
// listener, so a Publish broadcast lost between the listener's check and
// its Wait delays the event by a tick at most. The listener, which
// nothing stops, waits in hub.go:32 at the end of every run.
//
// Silent by design: a lost signal's replay (Publish's broadcast, or a
// tick's, before the Wait it woke in the recorded run) ends with the
// listener blocked in that Wait after the test, but a later tick woke
// the Wait of the schedule first, and the recorded run ends with the
// listener blocked there too: the replay's "blocked forever" is what
// every run shows (check's restingWaiter). kelindar/event's event.go:199
// lost signal of session 27 was this.
package restwaitfixed
