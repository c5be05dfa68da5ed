// Package methodvalue is a Go idiom subject: a Server's handler is
// replaced under its lock; Dispatch returns the method value s.h.Handle and
// forgets the lock.
//
// Known bug: data race on Server.h. Taking the method value evaluates its
// receiver, reading s.h (server.go:34), while SetHandler writes it
// (server.go:28) without synchronization. If Dispatch runs first, the
// request is served by the old handler (TestDispatch fails).
//
// go test -race flags it in a single run.
package methodvalue
