// Package testifymsgfixed is the fixed twin of package testifymsg (a
// wallet whose test asserts with a copy of testify's assert.Equal).
//
// Fixed: Deposit reads and writes the coins in one critical section.
// Nothing should be reported.
package testifymsgfixed
