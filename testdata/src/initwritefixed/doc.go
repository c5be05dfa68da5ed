// Package initwritefixed is the fixed twin of package initwrite.
//
// Fixed: the test reads err before Stop, when Serve cannot have returned,
// and again after done. Nothing should be reported. The write is in an if
// statement's init, which pecanvet's instrumentation once recorded when
// the statement began, before Serve ran (the inline form `*XW(&x, site) =
// f()`): the read before Stop then looked unordered with it, a race no run
// shows (go-grpc-middleware's protovalidate_test.go:129, triaged false in
// session 42). It is recorded after Serve returns now (rt.XSet).
package initwritefixed
