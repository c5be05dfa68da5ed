// Package elevatorfixed is the fixed twin of package elevator (Penelope
// section 6).
//
// Fixed: as in the original simulation, a lift claims the oldest pending
// call in one critical section (claimNext), so no two lifts can claim the
// same call. Nothing should be reported.
package elevatorfixed
