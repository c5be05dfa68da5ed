// Package busyflagfixed is busyflag as akrylysov/pogreb v0.10.2 writes
// it: Compact claims the flag by a compare-and-swap before doing
// anything, releases it in a deferred store, and a Compact that finds it
// held returns ErrBusy (pogreb's errBusy: "Returns an error if compaction
// is already in progress"); Delete only marks, and its caller compacts.
//
// Silent by design: a Compact between another's claim and release reads
// the flag held, which is the try-lock's state published on purpose, as
// a sync.Mutex's TryLock reads it; it did nothing before its try and says
// so by its error (static/depend's tryRefused). The test's poll, a
// function literal returning whether the flag is held to the helper that
// waits for it, only reports that state (heldProbe). pogreb's
// compaction.go:138 av (TestCompaction's "busy error" subtest, both its
// poll and its second Compact) was this.
package busyflagfixed
