// Package hotcoldfixed is the fixed twin of package hotcold.
//
// Fixed: Observe holds the Hist's read lock and Write its write lock:
// observations still run together, and none spans a flip. What is left
// is the histogram's own shape (prometheus/client_golang histogram.go:910,
// issue 26): another Observe's +1 between an Observe's add (hist.go:27)
// and its shard adds changes only the count bits, not the top bit the
// Observe picked its shard by, and the shard adds (an atomic add and a
// CAS loop's float add) commute with the other Observe's. Nothing should
// be reported.
package hotcoldfixed
