// Package hardcheck is a Go version of the program with a hard-to-reach
// concurrent breakpoint of the concurrent-breakpoints paper (Figure 4).
// Initially o.x is 0. Foo runs a long critical section (f1..f5) and then
// checks o1.x (line 8), failing if it is still 0 (line 9: ERROR); Bar sets
// o2.x = 1 (line 10) first thing and then runs a short critical section
// (f6). Thread 1 runs Foo and thread 2 runs Bar on the same object.
//
// Known bug: data race on XObject.x between the write at hardcheck.go:36
// (Figure 4, line 10) and the read at hardcheck.go:28 (line 8). The write is
// made before Bar takes the lock and the read after Foo released it, so the
// mutex does not protect x. In an ordinary run Bar's write comes long before
// Foo's check; in the schedule of the breakpoint (8, 10, t1.o1 == t2.o2) —
// Foo's whole critical section and its check before Bar's first statement —
// Foo returns ErrHard (TestFooBar fails).
//
// go test -race does not flag it in an ordinary run: there, Bar's unlock
// precedes Foo's lock, and the race detector takes that as a happens-before
// edge from the write to the read. The lockset/hybrid view of PECAN does
// not, and predicts the race.
package hardcheck
