// Package revalidate is a Go idiom: a pool of slots whose take has a
// lock-free fast path (an atomic load of the count rejects a full pool
// without the lock) and a locked slow path that bumps the count.
//
// Known bug: atomicity violation (check-then-act, RWW and RWR) on Slots.n. take
// loads the count without the lock (slots.go:22) and, if the pool is not
// full, bumps it under the lock (slots.go:26) without checking it again:
// another take can fill the pool between the two, and a third caller of a
// two-slot pool is let in. The test's two callers cannot overflow it (the
// bump reads the count afresh under the lock), so the replay shows no
// effect; pecanvet reports it with its dependence: the value loaded
// decides the write.
//
// go test -race flags nothing: every write is atomic and under the lock.
package revalidate
