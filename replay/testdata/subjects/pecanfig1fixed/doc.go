// Package pecanfig1fixed is Figure 1 of the PECAN paper with each thread
// made atomic under one mutex, and the error condition tightened to the
// state no serial order produces (y cleared but x not set). Nothing should
// be reported: no race (every access holds mu), and no atomicity violation
// (each thread's accesses are one critical section).
package pecanfig1fixed
