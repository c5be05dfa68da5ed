// Package lostincrfixed is the fixed twin of package lostincr.
//
// Fixed: an Increment whose LoadOrStore finds another's counter increments
// that one, as a hit does, as ulule/limiter's Cache.Increment does. Nothing
// should be reported: another Increment's miss inside this one's
// check-then-act (the av/RRW replays) leads it to the same LoadOrStore,
// which loads what this one stored and does what a hit does, so the run is
// one where its load came after the store (static/depend's ActAlike).
package lostincrfixed
