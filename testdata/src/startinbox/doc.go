// Package startinbox is a real-module subject's buggy cousin (pecanvet
// issue 26, session 52, branch cas52; anthdm/hollywood v1.0.5's actor
// Inbox, inbox.go:62-111, with Start's first CAS moving the status
// straight to idle where hollywood moves it to starting).
//
// Known bug: atomicity violation on Inbox.status: Start's CAS from
// stopped to idle (inbox.go:75) publishes "idle" before the handler is
// set and before its swap to idle (inbox.go:77). In TestSendThenRestart
// a Send's CompareAndSwapInt32(&status, idle, running) (inbox.go:39)
// that falls between them swaps and starts a process goroutine; the swap
// then sets idle under it and Start's own schedule (inbox.go:39) swaps
// too and starts a second one: two process goroutines at once. pecanvet
// reports it at inbox.go:75 (av RWR, check-then-act: the value Start's
// CAS read decides its schedule's CAS, which the Send's write in between
// lets swap). The Send's CAS is the intermediate value's doing and
// writes, so static/depend's `failedAsBefore`, which silences
// startinboxfixed, does not apply.
package startinbox
