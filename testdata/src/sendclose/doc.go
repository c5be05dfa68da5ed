// Package sendclose is a Go idiom gone wrong: a mailbox whose Post sends
// on a channel and recovers the panic if the mailbox was closed, instead
// of synchronizing with Close. TestPostAfterClose closes the mailbox and
// posts a little later, expecting the post to be refused.
//
// Known bug: data race (send/close) on the mailbox's channel between the
// send (mailbox.go:14) and the close (mailbox.go:21): nothing orders them,
// and the race detector reports a send racing with a close even when the
// send panics. In the recorded run the close comes first and the send
// panics (recovered: Post reports false). In the bad schedule the send
// comes first: the message is accepted into a mailbox being closed
// (TestPostAfterClose fails: Post = true, left over ["hi"]).
package sendclose
