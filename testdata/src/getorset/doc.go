// Package getorset is a Go idiom subject, beyond -race: a registry whose
// Get looks a key up in one critical section (lookup) and, when it is
// missing, inserts a default in another (insert).
//
// Known bug: atomicity violation (lookup-then-insert, RWW) on the
// registry's map: the lookup at getorset.go:18 decides the insert at
// getorset.go:25. Another goroutine's Set of the same key can fall in
// between, and Get's insert overwrites it: the value set is lost. The
// test asserts nothing about the outcome, so no replay fails: pecanvet
// reports it because the value looked up decides the insert (the
// dependence criterion). Every access holds the mutex, so go test -race
// reports nothing.
package getorset
