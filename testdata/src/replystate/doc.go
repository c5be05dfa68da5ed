// Package replystate is a real-module subject (pecanvet issue 26,
// session 46; zishang520/socket.io/v3 v3.0.6's HttpContext, whose Write
// "may be called at most once"): Write claims the reply under the mutex
// by storing committed (reply.go:35), writes the body, and finishes it
// under the mutex again by storing state|finalizing (reply.go:46).
//
// Known bug: an atomicity violation (WRW) on Reply.state: Done tests the
// finalizing bit only, which is clear on the intermediate value
// (committed) and set after finish, so a second Write between the first
// one's claim and its finish is not refused and writes its body too, as
// no serial order of the two Writes does (TestWrite fails: body ["b"
// "a"], want one). replystatefixed's Done is socket.io's, state != 0,
// true on committed and on state|finalizing alike: the refused Write
// acts as after the whole first one (static/depend's answeredAlike), and
// nothing may be reported there.
//
// go test -race flags nothing: the body is under the mutex and the state
// atomic.
package replystate
