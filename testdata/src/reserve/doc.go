// Package reserve is the connection-pool shape of session 17's trial
// (redigo's Pool.GetContext): Get checks the pool's limit under the lock,
// unlocks, and takes a slot (`p.active++`) in a second critical section
// (pool.go:23-31), then dials; a failed dial gives the slot back
// (pool.go:37). TestGet runs two Gets on a pool of one slot, the second
// 5 ms after the first, whose dial fails.
//
// Known bug: atomicity violation (RWW) on Pool.active: the second Get's
// `p.active++` (pool.go:29) falls between the first Get's check
// (pool.go:24) and its increment (pool.go:29): both pass the check of a
// one-slot pool and both take a slot, peak 2. Reported by its effect
// (reserve_test.go:30: `peak 2 active, want at most 1`) and by
// dependence (check-then-act: the value read at pool.go:24 decides the
// write at pool.go:29).
//
// -race, 1 run: no race (every access holds the lock).
package reserve
