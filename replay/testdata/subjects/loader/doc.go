// Package loader is a Go version of the ConTest "Loader" program (PECAN
// Table 1): a set of modules is loaded by one goroutine per module; each
// loader counts itself in Loader.loaded and the one that brings the count to
// the total announces completion by closing Loader.done.
//
// Known bug: atomicity violation (WWR, also RWW) and data races on
// Loader.loaded. The increment at loader.go:29 and the completion check at
// loader.go:30 are two separate plain accesses. If another loader's
// increment lands between them, both loaders see the final count and both
// close the channel: panic "close of closed channel" (with RWW, an update is
// lost instead and completion is never announced: TestLoadAll fails with
// "loading never completed").
//
// go test -race flags it in a single run.
package loader
