// Package bufwriterfixed is the fixed twin of package bufwriter (ConTest
// "BufWriter", atomic-sets paper Table 1).
//
// Fixed: Write holds the mutex on the fast path too, so buffering and
// flushing are serialized. Nothing should be reported.
package bufwriterfixed
