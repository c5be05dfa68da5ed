// Package vectoraddall is a Go version of java.util.Vector and
// java.util.Stack as used in the Penelope evaluation (Penelope Figure 1 and
// section 6): a generic synchronized vector whose AddAll(c) appends the
// elements of another vector c, and a Stack built on it.
//
// Known bug: atomicity violation (RWR on the source vector's Vector.data),
// the stale-size bug of Penelope Figure 1. AddAll locks only the
// destination; it reads the source's size (c.Size, the read at vector.go:24)
// and then fetches the elements one by one (c.Get, the read at
// vector.go:31), each call a separate critical section of c. If another
// goroutine shrinks c in between — RemoveAllElements (the write at
// vector.go:40) or a Stack's Pop (the write at vector.go:78) — the size is
// stale and Get panics with "index out of range", as the Java code throws
// ArrayIndexOutOfBoundsException (TestVectorAddAll, TestStackAddAll).
//
// Every access is made with the owning vector's mutex held, so go test -race
// does not flag it.
package vectoraddall
