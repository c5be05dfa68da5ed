// Package selectclosefixed is the fixed twin of package selectclose (a
// mailbox whose select send could race with its Close).
//
// Fixed: Post and Close hold the mailbox's lock, and Post checks a closed
// flag instead of recovering from the panic of a send on the closed
// channel: the send and the close are ordered by the lock. Nothing should
// be reported.
package selectclosefixed
