// Package errpair is a real-module subject (pecanvet issue 26; the
// shape of bytedance/gopkg v0.1.4's asynccache entry, with a refresh
// that stores a failed fetch's value with its error): an Entry keeps a
// value and its error in two atomics, Store writes the value, then the
// error, and Get returns both.
//
// Known bug: atomic-set-serializability violation on Entry.val and
// Entry.err: Store's two writes (entry.go:19, entry.go:20) are each
// atomic, the pair is not. A Get whose reads (entry.go:25, entry.go:29)
// fall between them returns the failed fetch's value with the error
// from before, nil: `got partial with no error` (TestRefresh fails);
// seen from Get, its value and error from two states (entry.go:25 asv,
// an inconsistent result). Every access is sync/atomic: go test -race
// reports nothing.
//
// One bug, one report: the Get-side violation's dependence joins the
// lines the failing Store-side one's does (entry.go:25 with :29), so it
// is grouped under the report at entry.go:19 and shown with -v.
package errpair
