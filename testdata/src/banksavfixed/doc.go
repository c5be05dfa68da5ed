// Package banksavfixed is the fixed twin of package banksav (the bank
// example of the AVFilter evaluation, "bank-sav").
//
// Fixed: Withdraw waits until the balance suffices and subtracts in the same
// critical section, and Deposit adds in one critical section; Transfer uses
// them. Nothing should be reported.
package banksavfixed
