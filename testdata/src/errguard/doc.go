// Package errguard is a real-module subject (pecanvet issue 26; the
// shape of bytedance/gopkg v0.1.4's asynccache GetOrSet against its
// entry's Store, with a refresh that stores a failed fetch's value with
// its error): an Entry keeps a value and its error in two atomics, Store
// writes the value, then the error, and GetOr returns the value only
// when the error is nil, else the default.
//
// Known bug: atomic-set-serializability violation on Entry.val and
// Entry.err: Store's two writes (entry.go:19, entry.go:20) are each
// atomic, the pair is not. A GetOr whose test of the error (entry.go:32)
// and read of the value (entry.go:28) fall between them sees the error
// from before, nil, and returns the failed fetch's value: `got partial,
// the failed fetch's value` (TestGetOr fails). Every access is
// sync/atomic: go test -race reports nothing.
package errguard
