// Package depatomic is a Go idiom gone wrong across two packages of one
// module, after singchia/go-timer/v2 (trial 33): a helper package
// (depatomic/hits) declares a hit counter whose word its users add to
// atomically, and reads it back with a plain read, as if one atomic side
// were enough. Server counts its requests with atomic.AddInt64 on the
// helper's counter; TestServe serves one request on another goroutine
// and reads the count through the helper after it.
//
// Known bug: data race on Counter.N between the atomic add (count.go:14)
// and the helper's plain read (hits/hits.go:16). pecanvet recorded a
// helper package of the module (one the checked package imports) for its
// goroutines and synchronization, not its plain accesses, but it recorded
// a helper's plain access of a word the helper itself updates through
// sync/atomic (hits.go:11); since session 55 it records such a package
// whole (see depwrite). In the bad schedule the read runs before the
// add (TestServe fails: requests = 0, want 1).
//
// go test -race flags it in a single run.
package depatomic
