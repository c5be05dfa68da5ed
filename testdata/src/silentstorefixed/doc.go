// Package silentstorefixed is the fixed twin of package silentstore.
//
// Fixed: Restore is handed the gauge's own snapshot (a replica restarting
// from its own checkpoint) before any new observation, the value the
// peak holds when its Store comes: a silent store. (Restoring it after
// Observe(20) would lower the peak in any order, so the test restores
// first; the schedule pecanvet predicts moves the Store inside Observe.) Wherever it falls, between Observe's Load and
// Store too, every read sees what it would see without it, so the
// interleaving changes no value anyone reads. Nothing should be reported
// (before session 26 the replay's dependence criterion reported the
// check-then-act, not knowing the store changed nothing).
package silentstorefixed
