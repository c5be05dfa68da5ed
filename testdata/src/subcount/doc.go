// Package subcount is a Go idiom subject after pond v2's subpools (issue
// 26): a subpool counts its workers under its own lock and its parent
// under the parent's; a subpool's workers are the parent's too.
//
// Known bug: atomic-set-serializability violation on the two counts:
// Balanced reads the subpool's count and then the parent's (pool.go:65,
// each under its own lock) to tell whether every subpool worker is
// counted in the parent, and a Launch that adds a worker to the subpool
// and then to the parent (pool.go:77, twice) can fall between: Balanced
// sees the subpool's new worker and not the parent's, a state no serial
// order shows (TestBalanced fails: "the subpool counts a worker the
// parent does not"). Submit against Exit (TestSubmitExit) is what
// subcountfixed keeps, and is not reported. Every access holds its
// pool's mutex, so go test -race reports nothing. One bug, one report at
// pool.go:65: Launch's side of it (pool.go:77, the failing test) joins the
// lines of Balanced's inconsistent result and is shown with -v.
package subcount
