// Package counteridfixed is the fixed twin of package counterid.
//
// Fixed: Register takes the id from the add's own result, `id :=
// r.next.Add(1)`, so each caller gets its own. What is left is silent by
// design: record adds to Registry.added and loads it for the gauge, and
// another Register's add between the two replays (av RWR on
// Registry.added, a read-back of a total that holds the other's add), but
// the loaded value is only stored into the gauge, and the other Register
// sets the gauge again after its own load, from a total that holds both
// adds: the gauge ends as in a serial order, and until then it holds the
// count at the load (static/depend's `superseded`, check's
// `Event.Superseded`; istio8214fixed's cache.go:29 av was this). Nothing
// should be reported.
package counteridfixed
