// Package hashset is a Go version of java.util.HashSet behind a synchronized
// wrapper (PECAN Table 1 "HashSet"): a generic set backed by a map, with a
// cached size; every method holds the set's mutex. Like HashSet.add, which
// calls HashMap.put, Add always (re)puts the element; it decides whether the
// element is new with a separate Contains call because the mutex is not
// reentrant.
//
// Known bug: atomicity violation (RWW on the map Set.m, and the lost size
// update it causes). Add reads s.m in Contains at hashset.go:19, then writes
// it at hashset.go:28 and increments s.size at hashset.go:30 in a second
// critical section. If another goroutine adds the same element in between,
// both calls find it absent, both report it as new and both count it
// (TestAddSameElement fails: Len is 3 for a two-element set).
//
// Every access is made with the mutex held, so go test -race does not flag
// it.
package hashset
