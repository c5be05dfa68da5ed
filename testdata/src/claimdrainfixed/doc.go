// Package claimdrainfixed is claimdrain with qmuntal/stateless v1.7.2's
// order: Fire queues its trigger (machine.go:22), then fetches in a
// loop; fetch tests the queue, claims the drain by a compare-and-swap of
// firing (machine.go:40) and takes the head; execute runs the trigger
// and releases the claim (machine.go:50, deferred), and the holder
// fetches again after the release. A Fire whose claim fails returns and
// leaves its trigger to the holder's next fetch, which comes after the
// release and so after the trigger was queued.
//
// Nothing should be reported. It is silent by design: a failed try
// between the holder's claim and its release reads the held claim and
// returns, and the holder's drain takes again after the release
// (static/depend's releaseRetaken; stateless's modes.go:77 av); the
// holder's claim is no stale check when its own release replaced it
// before another Fire's claim (Event.Overwrite; stateless's modes.go:66
// and :77 asv).
package claimdrainfixed
