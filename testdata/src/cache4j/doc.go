// Package cache4j is a small Go version of cache4j (PECAN Table 1), "a
// thread-safe implementation of cache for Java objects": a generic
// read-through cache with a capacity and FIFO eviction. The entries are
// guarded by the cache's mutex; the hit and miss statistics are updated
// after the lock is released.
//
// Known bug: data race (and the lost update it allows, an atomicity
// violation RWW) on the statistics Cache.hits and Cache.misses. Get
// increments c.hits at cache4j.go:27 and c.misses at cache4j.go:30 without
// holding the mutex. If two lookups' increments interleave, one is lost: the
// statistics do not add up to the number of lookups (TestStats fails).
//
// A second anomaly, found by the generated driver calling Get and Get on
// an empty cache (the construction copied from TestStats): atomicity
// violation between the lookup at cache4j.go:24 and the store at
// cache4j.go:49, in two critical sections. Two concurrent misses of one
// key both load it and leave Stats() = [0 2], where either order counts
// one hit and one miss.
//
// go test -race flags the first in a single run.
package cache4j
