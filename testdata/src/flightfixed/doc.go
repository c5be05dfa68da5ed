// Package flightfixed is the fixed twin of package flight (calls by key
// that publish their key as pending while they run, as singleflight does).
//
// Fixed: Do increments the count in its second critical section instead of
// writing back the value read in the first. What remains is the other
// call's writes of Group.pending (and of the count) falling between this
// call's two critical sections: Do releases the lock there on purpose, and
// the interleaving has no effect (the test passes). Nothing should be
// reported by default; pecanvet check -v shows it as an interleaving
// without effect.
package flightfixed
