// Package tunewakefixed is tunewake with Tune storing the capacity and
// broadcasting while it holds the pool's mutex (the fix of ants'
// Tune): Acquire holds the mutex from its check of the capacity until its
// Wait releases it, so the broadcast comes before the check (which then
// reads the new capacity and does not wait) or after the Wait. Its
// natural recording has the same early broadcast, so it is recorded
// again children first as tunewake is. Nothing should be reported.
package tunewakefixed
