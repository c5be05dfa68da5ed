// Package doubleclose is a Go idiom subject: a Server's Stop closes its quit
// channel once, guarded by a plain stopped flag. Stop may be called by the
// owner and by a signal handler.
//
// Known bug: data race on Server.stopped (check-then-act; an atomicity
// violation RWW when both calls pass the check). Stop reads s.stopped at
// server.go:17 and writes it at server.go:18 without synchronization. If a
// second Stop reads the flag before the first one sets it, both close s.quit
// at server.go:19 and the second panics: "close of closed channel".
//
// go test -race flags it in a single run.
package doubleclose
