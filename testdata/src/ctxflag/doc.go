// Package ctxflag is a Go idiom subject: a Server signals shutdown with a
// plain bool instead of a context or a lock. Handle checks the flag and then
// queries the database; Shutdown sets the flag and closes the database.
//
// Known bug: data races and an atomic-set-serializability violation on the
// atomic set {Server.shuttingDown, DB.closed} (pattern 11 of the atomic-sets
// paper: R(l1) W'(l1) W'(l2) R(l2)). Handle reads s.shuttingDown at
// server.go:39 and then db.closed at server.go:19; Shutdown writes
// s.shuttingDown at server.go:47 and db.closed at server.go:26, all without
// synchronization. If Shutdown runs between Handle's check and its query, a
// request that was accepted fails with "database is closed"
// (TestHandleThenShutdown fails).
//
// go test -race flags it in a single run.
//
// The same bug seen from Shutdown's side, its two writes (server.go:47,
// server.go:26) with Handle's reads between, is judged by its dependence
// (an inconsistent snapshot, whose lines the failing Handle-side asv's
// dependence joins too: one bug, one report at server.go:39, this one
// shown with -v): its schedule's own failure
// ("server shutting down") holds Handle past the test's 5 ms sleep, and
// the serial order with Handle after Shutdown fails the same way, so the
// control finds that failure the test's timing.
package ctxflag
