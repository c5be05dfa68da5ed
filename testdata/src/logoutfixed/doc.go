// Package logoutfixed is logout with Close made idempotent, as go-smtp's
// Conn.Close is: the nil check, the logout and the clear in one critical
// section (line.go:47-49), so whichever Close comes first logs the
// session out and the other finds nil.
//
// Nothing should be reported. In TestShutdown the test's Close runs
// between the goroutine's Login (line.go:38) and its own Close's check
// (line.go:47), as it did in the recorded run: an atomicity violation on
// Line.sess that replays, the goroutine reading back nil, another
// goroutine's write (line.go:49), not its Login's. But the writer ran
// the very take-and-clear block the goroutine's check tests and logged
// out the goroutine's session there: the two Closes traded places and
// the session was logged out once (static/depend's takenBack; go-smtp's
// conn.go:166 av of trial 17 was this). Main's build before it reported
// line.go:38 av (stale read-back).
package logoutfixed
