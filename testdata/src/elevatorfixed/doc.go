// Package elevatorfixed is the fixed twin of package elevator (Penelope
// section 6).
//
// Fixed: a lift claims the oldest pending call and records its service in
// one critical section (serveNext), so no two lifts can claim the same
// call. (Claiming in one critical section and recording the arrival in a
// second, as the original simulation does, is correct too, but the lifts'
// updates of the pending list and the served counts then interleave: an
// atomic-set-serializability violation on {pending, served}, harmless
// because the counts commute — the kind of benign violation the atomic-sets
// paper's Table 2 lists.) Nothing should be reported.
package elevatorfixed
