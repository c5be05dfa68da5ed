// Package sendclosedfixed is the fixed twin of package sendclosed.
//
// Fixed: Notify holds the mutex from the check of the closed flag through
// the send, and the send never blocks (an event is dropped when the buffer
// is full), so Close cannot close the channel in between and cannot be
// blocked by a slow subscriber. Nothing should be reported.
package sendclosedfixed
