// Package sweepfixed is sweep fixed: Sweep deletes an expired key before
// it unlocks for the callback, so a Set during the callback stays. What
// is left is silent by design: the loop still unlocks in its body, and
// another goroutine's Set can fall between the range's read of the map
// (sweep.go:34) and the delete of a later iteration (sweep.go:36), an
// atomicity violation on the map that replay reproduces. But the later
// iteration reads the map again for its key (the map iterator reads the
// live map, and a range over a map is recorded at each iteration), after
// the Set: the key it deletes is not stale. Nothing should be reported.
package sweepfixed
