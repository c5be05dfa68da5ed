// Package lotteryfixed is the fixed twin of package lottery (ConTest
// "Lottery", atomic-sets paper Table 1).
//
// Fixed: Buy decides whether its ticket was the last one from the count it
// wrote itself, in the same critical section, so exactly one buyer starts
// the draw. Nothing should be reported.
package lotteryfixed
