// Package cache4jfixed is the fixed twin of package cache4j (PECAN Table 1).
//
// Fixed: Get counts the hit or the miss in the same critical section as the
// lookup, so the statistics are only updated with the mutex held. Nothing
// should be reported.
package cache4jfixed
