package depend

import "slices"

// storedAgain reports whether the value another goroutine's read r finds
// between the unit's writes a and b of one map element is the one b
// leaves there, by the replay's own trace (Event.Again): a and b store
// one value at r's element, and no event from a to b writes that
// element or the whole map but a and b. The element then holds a's value
// from a to b, so r reads it, and b stores it again: r reads what it
// reads with the whole unit before it, a serial order, whatever r does
// with it. hashicorp/raft's cluster.FullyConnect calls Connect for each
// ordered pair of transports, t1.Connect(addr2, t2) and
// t2.Connect(addr1, t1), so each transport's peers map gets one peer's
// pointer twice, at (i,j) and at (j,i), and a makeRPC's lookup of that
// peer between finds the pointer the second store puts there.
//
// Why sound: the replay's trace is one process's, its events in the
// order they ran. Its keys are hashes of one process, equal for equal
// keys: a write at another hash is at another key, and a collision of
// r's key with a's only forbids more (a write at the colliding key is a
// write at a's hash, which gives up). A value's identity (trace.Event.Val,
// rt.ValID) is recorded only for element types whose bits are the
// value, outside interfaces and strings: one identity, one value. A
// pointer's object is the same at b as at a: the element held it from a
// to b, keeping it alive, so its address was not reused.
//
// What it does not claim: a write of the element between, even one of
// the same value (the judge asks no more of it); a delete or clear
// between; a write with no recorded identity (an interface, string or
// composite element, a value the instrumentation could not evaluate
// again, a read-modify-write m[k] += v); a write or read the trace
// records as the whole map (a key it could not hash); a read of the
// element at another key's hash. The unit's other writes are other
// instances, judged as they are; an access by code the instrumentation
// does not record is unseen, as for every judge of the replay's trace.
func storedAgain(evs []Event, i, r, j int) bool {
	return slices.Contains(evs[r].Again, [2]int{i, j})
}
