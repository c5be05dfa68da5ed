// Package drvgetter is a lost update observable only through a getter
// (issue 27): a Counter whose Add reads the total under its mutex,
// unlocks, and stores the sum under the mutex again; the total is an
// unexported field, read by the exported Total under the mutex. Its only
// test adds 1 then 2 from one goroutine, so no recorded run has two
// goroutines in Add: pecanvet finds the bug through a generated driver
// (static/driver) calling Add and Add from two goroutines, whose oracle
// reads the counter's state through Total, the method that SSA shows
// writes nothing (it locks, reads and unlocks).
//
// Known bug: atomicity violation (RWW) on Counter.total: the read at
// counter.go:17 and the write at counter.go:21 are in separate critical
// sections; another Add's write can fall in between. The driver takes
// its arguments from the test: Add(1) and Add(2) together leave Total()
// = 1 or 2 where either order leaves 3, which its message names.
//
// Every access holds the mutex, so go test -race flags nothing.
package drvgetter
