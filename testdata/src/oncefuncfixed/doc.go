// Package oncefuncfixed is the fixed twin of package oncefunc.
//
// Fixed: Size calls the once function before it reads the table, so the
// table's write (in the once function's body) happens before the read,
// whichever goroutine ran it. Nothing should be reported.
package oncefuncfixed
