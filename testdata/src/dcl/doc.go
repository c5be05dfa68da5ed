// Package dcl is a Go version of the ConTest "DCL" program (atomic-sets
// paper, Table 1): double-checked locking. Registry.Config creates the
// configuration on first use; the fast path tests the pointer without the
// lock, the slow path creates the configuration under the lock — allocating
// it, publishing it, and only then filling it in.
//
// Known bug: data races and an atomic-set-serializability violation on the
// atomic set {Registry.cfg, Config.Host, Config.Port} (pattern 9 of the
// atomic-sets paper: W(l1) R'(l1) R'(l2) W(l2)). The slow path publishes
// r.cfg at dcl.go:27 before load fills in the fields at dcl.go:12; the
// unsynchronized fast-path read at dcl.go:24 can see the published pointer
// and return a configuration whose Port is still 0 (TestConcurrentUse fails:
// "port 0"). This is the broken double-checked-locking idiom the atomic-sets
// paper classifies as a bug.
//
// go test -race flags it in a single run.
package dcl
