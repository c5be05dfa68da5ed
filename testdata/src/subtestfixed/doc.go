// Package subtestfixed is the fixed twin of package subtest.
//
// Fixed: the subtests do not call t.Parallel, so t.Run runs each to its
// end before the next starts, and the parent reads the tally after its
// t.Run calls returned. Nothing should be reported: a subtest starts after
// its parent's code before t.Run, and t.Run returns after it ended.
package subtestfixed
