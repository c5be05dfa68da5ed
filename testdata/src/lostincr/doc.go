// Package lostincr is a real-module subject (pecanvet issue 26; ulule/limiter
// v3.11.2's memory cache, drivers/store/memory/cache.go): Increment loads
// the key's counter and, on a miss, creates it with LoadOrStore.
//
// Known bug: atomicity violation (av/RRW, another goroutine's miss inside
// the unit's check-then-act) on Cache.counters["k"]: when another Increment
// misses too, the one whose LoadOrStore comes second finds the other's
// counter but increments the new one it made, which the map never holds:
// its increment is lost (TestIncrement fails: `count 1, want 2`).
package lostincr
