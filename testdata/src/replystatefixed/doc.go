// Package replystatefixed is replystate with socket.io's own Done,
// state != 0: a Write between another's claim (committed) and its
// finish (state|finalizing, nonzero whatever state was) is refused, as
// after the whole first Write. The read between the two writes is only
// compared with a constant, and the comparison's outcome on the
// intermediate value is its outcome after the second write: the reader
// acts as in that serial order (static/depend's answeredAlike;
// socket.io's http-context.go:234 av of session 45's trial 27 was this).
// Nothing may be reported.
package replystatefixed
