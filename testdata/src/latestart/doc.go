// Package latestart: a goroutine that the recorded run starts too late.
//
// Server.Handle (server.go:14) starts the request's audit in a goroutine
// and returns; audit (server.go:22) appends to s.audited holding no lock,
// while Audited (server.go:26) reads it under s.mu. TestHandle calls
// Handle and then Audited, and returns without waiting for the audit. In
// an ordinary run the audit goroutine has usually not run when Audited
// reads: the test's goroutine keeps the processor, and the write comes
// after the test's read, or after the test has returned.
//
// Anomaly: data race on Server.audited between the audit's append
// (server.go:22) and Audited's len (server.go:29). Expected: reported, the
// replay running the audit before the read.
package latestart
