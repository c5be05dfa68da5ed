// Package bankavfixed is the fixed twin of package bankav (the bank example
// of the AVFilter evaluation, "bank-av").
//
// Fixed: an account offers Add, which reads and writes its balance in one
// critical section, and Transfer uses it for both accounts. Each balance
// update is atomic; the transfer as a whole need not be, because every
// update commutes with the others. Nothing should be reported.
package bankavfixed
