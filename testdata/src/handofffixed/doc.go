// Package handofffixed is the fixed twin of package handoff (calls by key
// that publish their pending call, as singleflight does).
//
// Fixed: a duplicate caller that finds the pending call (handoff.go:25)
// waits on its WaitGroup (handoff.go:27), which the first call marks done
// (handoff.go:36) after setting the value (handoff.go:35), and only then
// reads it. What remains is the duplicate's lookup between the first
// call's insert (handoff.go:32) and delete (handoff.go:39): an
// intermediate state published on purpose for it to wait on (a hand-off,
// static/depend's handoff), and the test passes. Nothing should be
// reported by default; pecanvet check -v shows it as an interleaving
// without effect.
package handofffixed
