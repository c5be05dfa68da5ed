// Package oncefunc is a Go idiom subject: a Registry loads its table
// lazily through a function made by sync.OnceFunc; Lookup calls it, Size
// forgot to.
//
// Known bug: data race on Registry.table. The once function writes it
// (registry.go:15) in whichever goroutine first calls Lookup; Size reads it
// (registry.go:28) without calling the once function, so nothing orders
// the two. If Size runs before the first Lookup's load, it sees no table
// (TestSize fails).
//
// go test -race flags it in a single run. The fixed twin calls the once
// function in Size: sync.OnceFunc makes the function's body happen before
// every return of the function it made, which pecanvet must know to report
// nothing there.
package oncefunc
