// Package drvreset is the shape of ristretto's z.Allocator (session 23's
// trial 8) with the allocator rewound while in use: Arena.Trim calls
// Reset (arena.go:20) on the allocator that Alloc hands bytes out of
// (arena.go:15), so two holders may get the same bytes. The tests are one
// goroutine each (allocator_test.go), so pecanvet finds the bug through a
// generated driver (static/driver) calling Allocate and Reset from two
// goroutines. The package calls Reset at run time on a shared allocator,
// not only on one it is about to hand out, so the driver is made
// (static/driver reuseHook keeps it).
//
// Known bug: data race on Allocator.off between Reset's unlocked write
// (allocator.go:32) and Allocate's locked read (allocator.go:21) and
// write (allocator.go:26): the offset goes back to 0 under an allocation,
// and the bytes handed out are handed out again. Allocator holds a
// sync.Mutex, so it is meant for concurrent use and the race is reported
// as any race is.
//
// -race, 1 run: the tests have one goroutine each; no race.
package drvreset
