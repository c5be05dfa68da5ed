// Package pecanfig1 is Figure 1 of the PECAN paper in Go: thread 1 writes
// w (line 1), reads x and z (line 2) and panics with "ERROR" if it reads
// y == 0 (lines 3–4); thread 2 writes x, z and finally clears y (lines 5–7).
//
// Known bug: three data races, (2,5) on State.x, (2,6) on State.z and
// (3,7) on State.y: the read of y at fig1.go:13 and the write of y at
// fig1.go:22. An ordinary run (thread 2 starts 5 ms later) reads y before
// it is cleared and passes; the schedule ⟨1,5,2,6,7,3⟩ reaches the panic.
//
// go test -race flags it in a single run (no synchronization orders the
// two threads' accesses).
//
// Expected: the data races and atomicity violations above are reported; the
// atomic-set-serializability violation at fig1.go:21 (the writes of z and y
// around the other thread's reads) has neither an effect nor a dependence:
// an interleaving without effect, shown with -v.
package pecanfig1
