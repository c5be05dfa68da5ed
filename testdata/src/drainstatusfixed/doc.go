// Package drainstatusfixed is drainstatus fixed: Maintain closes the pass
// with CompareAndSwap(processing, idle) (drain.go:46) and stores required
// when the swap fails, so a Write's processingRequired asks for another
// pass instead of being overwritten. The processing state between
// Maintain's writes is published: Busy reads it (drain.go:53) and a Write
// turns it into processingRequired, both by design; the pass's read-back
// (drain.go:49) only compares the status with required to see whether
// a write came. Nothing should be reported.
//
// pecanvet's dependence criterion (static/depend: published,
// checksForOthers) keeps quiet here; without those rules it would report
// an intermediate state and a stale read-back on Cache.status.
package drainstatusfixed
