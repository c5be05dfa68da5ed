// Package treeset is a Go version of java.util.TreeSet behind a synchronized
// wrapper (PECAN Table 1 "TreeSet"): a generic sorted set stored in a binary
// search tree, with a cached size. Add releases the mutex between the
// structural change and the size update so that it can call the OnAdd
// listener without holding the lock.
//
// Known bug: atomic-set-serializability violation on the atomic set {tree
// links (node.left/node.right, TreeSet.root), TreeSet.size} (patterns 9/10
// of the atomic-sets paper: W(l1) R'(l2) R'(l1) W(l2)). Add links the new
// node into the tree at treeset.go:34 and increments t.size at treeset.go:50
// in a later critical section. A concurrent ToSlice reads t.size at
// treeset.go:66 and walks the links at treeset.go:73 in one critical section
// that can fall in between: it sees the new node but the old size, and
// filling the result slice panics with "index out of range" (Java's toArray
// throws ArrayIndexOutOfBoundsException the same way).
//
// Every access is made with the mutex held, so go test -race does not flag
// it.
package treeset
