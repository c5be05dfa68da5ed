// Package montecarlofixed is the fixed twin of package montecarlo (Java
// Grande "MonteCarlo", PECAN Table 1).
//
// Fixed: the totals are sync/atomic integers, so each worker's additions are
// atomic read-modify-writes. Nothing should be reported.
package montecarlofixed
