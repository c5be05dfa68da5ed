// Package drvportfixed is drvport with Open's check, bind and store in
// one critical section (port.go:50-61): two concurrent Opens leave one
// listening socket, one returning ErrOpen, as either order does. The
// generated driver ends each case's socket by the test's deferred
// Interrupt, as for drvport, so every case finds the port free; nothing
// should be reported.
package drvportfixed
