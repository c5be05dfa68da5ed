// Package stopcleanup is a session store with a cleanup goroutine, after
// alexedwards/scs v2.9.0's memstore: New starts cleanup, which removes
// expired entries on every tick until Stop signals it on s.stop. Stop
// reads s.stop and sends on it when it is not nil. TestExpired puts an
// expired entry, polls (under the mutex) until the cleanup removed it, and
// stops the store in a deferred call.
//
// Known bug: data race on Store.stop: cleanup creates the channel
// (store.go:21, write) in the goroutine New starts, and Stop reads it
// (store.go:35) with nothing between. A Stop that runs before the
// goroutine got there reads nil and returns, and the goroutine runs on
// forever. In the recorded run the test reaches Stop only after it saw
// the entry gone, which the goroutine did after its write; in the
// schedule that runs Stop's read first, the entry is still there, the
// test polls on and takes its t.Fatal branch, and the deferred Stop reads
// s.stop on that other path (the replay's detour).
//
// go test -race does not flag it in ordinary runs: the mutex orders
// cleanup's expire, after its write, before the test's Has that sees the
// entry gone, and so before Stop.
package stopcleanup
