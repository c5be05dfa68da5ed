// Package stopflagfixed is the fixed twin of package stopflag: miekg/dns
// v1.1.73's Server itself. Shutdown keeps the connection, and unblocks
// the read by a past deadline only.
//
// It is silent by design: started is a stop flag. Shutdown only clears
// it (server.go:82), and each of Serve's reads of it stops: the loop's
// check (isStarted, server.go:24, called at :44) leaves the loop for
// `return nil`, the check after a read error returns nil, and read's
// (server.go:62) skips setting the deadline. A Shutdown between Serve's
// start (server.go:37) and the loop's check, or between the loop's check
// and read's, stops the loop where its stopper meant it to stop; a serve
// loop cut short by its stopper is no unit a serial order can hold
// (static/depend's stopFlag; dns's server.go:388, :393 and :272 av, all
// triaged false, were this). Main's build before it reported
// server.go:37 av (stale read-back at server.go:24).
//
// Nothing should be reported.
package stopflagfixed
