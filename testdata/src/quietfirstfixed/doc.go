// Package quietfirstfixed is quietfirst with Incr's read and write in one
// critical section. Reset's interleaving (TestAReset) is still there,
// without effect or dependence, shown only with -v: nothing should be
// reported.
package quietfirstfixed
