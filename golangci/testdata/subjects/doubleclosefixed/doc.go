// Package doubleclosefixed is the fixed twin of package doubleclose.
//
// Fixed: Stop closes the quit channel through a sync.Once, so the check and
// the close are one atomic step and the channel is closed exactly once.
// Nothing should be reported.
package doubleclosefixed
