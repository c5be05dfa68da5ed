// Package stopflag is a real-module subject (pecanvet issue 26, session
// 31; miekg/dns v1.1.73's Server and its stop flag, with a Shutdown that
// lets go of the connection): Serve sets started (server.go:38) and
// serves while isStarted holds (server.go:25, the loop's check at :45),
// reading each packet in read, which takes the connection under the read
// lock (server.go:68) and sets a read deadline while started (:69).
// Shutdown clears started (server.go:89), unblocks the read by a past
// deadline, and sets the connection to nil (server.go:91).
//
// Known bug: a check-then-act on the stop flag: an atomicity violation
// (RWR) on Server.started and an atomic-set violation (pattern 11) on
// {Server.started, Server.conn}. When Shutdown runs between the loop's
// check (true) and read's take of the connection, read takes nil, skips
// the deadline (started is false now) and calls ReadFrom on the nil
// connection: a nil pointer dereference at server.go:73 (TestServeShutdown
// panics). Reported by that effect, at server.go:25 (the other
// interleavings of the panic are the same bug). static/depend's stopFlag,
// which lets stopflagfixed's loop stop where its stopper says, applies to
// the dependence criterion only, and to pairs of the flag's own accesses:
// the read of another variable after the check is judged as before.
//
// go test -race flags nothing: every access is under the lock.
package stopflag
