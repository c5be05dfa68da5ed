// Package ctxafterfuncfixed is the fixed twin of package ctxafterfunc.
//
// Fixed: the close callback closes a channel and Closed asks the channel
// (a receive that sees the close is ordered after it); the test waits on
// the channel instead of sleeping. A second test stops the callback before
// the context is done (stop reports true: it never runs). The callback
// still reads Conn.peer, written before the context.AfterFunc call, which
// happens before the callback. Nothing should be reported.
package ctxafterfuncfixed
