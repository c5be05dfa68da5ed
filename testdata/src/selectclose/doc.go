// Package selectclose is a Go idiom gone wrong (after Go's
// TestRaceChanSendSelectClose): a mailbox whose Post sends in a select
// (refusing when the mailbox is full) and recovers the panic if the
// mailbox was closed, instead of synchronizing with Close.
// TestPostAfterClose closes the mailbox and posts a little later,
// expecting the post to be refused.
//
// Known bug: data race (send/close) on the mailbox's channel between the
// select's send (mailbox.go:20) and the close (mailbox.go:30): nothing
// orders them, and the race detector reports a send racing with a close
// even when the send panics. In the recorded run the close comes first and
// the select panics (recovered: Post reports false); a select records the
// case that fired only afterwards, so that send is recorded when the panic
// is recovered. In the bad schedule the send comes first: the message is
// accepted into a mailbox being closed (TestPostAfterClose fails: Post =
// true, left over ["hi"]).
package selectclose
