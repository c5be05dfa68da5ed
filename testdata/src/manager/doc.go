// Package manager is a Go version of the ConTest "Manager" program (PECAN
// Table 1): a resource manager hands numbered resources (think database
// connections) to clients and takes them back. The free list and the owner
// table are guarded by a mutex, and every method locks it.
//
// Known bug: atomicity violation (RWW / RWR on Manager.free). Acquire asks
// for a free resource (peek, the read of m.free at manager.go:31) and then
// takes it (take, the read and write of m.free at manager.go:44) in two
// separate critical sections. If another client's take runs in between, both
// clients are given the same resource: take panics with "manager: resource 3
// handed out twice" (the check of m.owner at manager.go:40).
//
// Every access is made with the mutex held, so go test -race does not flag
// it.
package manager
