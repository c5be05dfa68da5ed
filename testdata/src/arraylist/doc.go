// Package arraylist is a Go version of java.util.ArrayList wrapped by
// Collections.synchronizedList (PECAN Table 1 "ArrayList"; the atomic-sets
// paper, section 5): a generic slice-backed list whose methods hold the
// list's mutex — except Iterator, which, as in the JDK, walks the backing
// slice directly and must be locked by the caller. AddAll forgets to.
//
// Known bug: data race and atomicity violation (RWR on the source list's
// List.data). AddAll(src) iterates src with an Iterator: HasNext reads
// src.data at arraylist.go:65 and Next reads it at arraylist.go:69, both
// without src's lock. A concurrent src.RemoveAt writes src.data at
// arraylist.go:36 with the lock held. If the removal lands between HasNext
// and Next of the last element, Next indexes past the shortened slice and
// panics ("index out of range"); a removal between two iterations silently
// skips an element (TestAddAllThenRemove fails).
//
// go test -race flags it in a single run (the iterator's reads are not
// locked).
package arraylist
