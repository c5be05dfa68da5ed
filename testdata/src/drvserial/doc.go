// Package drvserial is the mock-clock shape of session 22's trial
// (benbjohnson/clock's Mock.Add): a Clock whose Add reads the time under
// its mutex, fires the timers due before the new time with the mutex
// released, and stores the new time under the mutex again. Nothing in
// the package says Add is kept to one goroutine, and the Clock holds a
// mutex, so two goroutines may advance it at once. Its only test adds
// from one goroutine, so pecanvet finds the bug through a generated
// driver (static/driver) calling Add and Add from two goroutines.
//
// Known bug: atomicity violation (RWW) on Clock.now: the read at
// clock.go:26 and the write at clock.go:34 are in separate critical
// sections; another Add's write can fall between, and one advance is
// lost: Add(1) and Add(2) together leave Now() = 1 or 2 where either
// order leaves 3.
//
// Every access holds the mutex, so go test -race flags nothing.
package drvserial
