// Package foobarfixed is the fixed twin of package foobar
// (concurrent-breakpoints paper, Figure 1).
//
// Fixed: a Point carries a done channel that Foo closes after the write; Bar
// waits for it before reading, so the write happens-before the read and the
// reporter always sees x = 10. Nothing should be reported.
package foobarfixed
