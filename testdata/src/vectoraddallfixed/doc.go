// Package vectoraddallfixed is the fixed twin of package vectoraddall
// (java.util.Vector / Stack, Penelope Figure 1).
//
// Fixed: AddAll takes one snapshot of the source (c.Slice, a single critical
// section of c) and appends it, so the number of elements and the elements
// themselves always come from the same state of c. Nothing should be
// reported.
package vectoraddallfixed
