// Package cache4jfixed is the fixed twin of package cache4j (PECAN Table 1).
//
// Fixed: Get holds the mutex across the lookup, the count of the hit or
// the miss, the load and the store (cache4j.go:25-38), so the statistics
// are only updated with the mutex held, and two concurrent misses of one
// key load it once: they count one hit and one miss, as either order does.
// (With only the count moved under the lock, the generated driver calling
// Get and Get on an empty cache found both missing and Stats() = [0 2],
// which no order gives.) Nothing should be reported.
package cache4jfixed
