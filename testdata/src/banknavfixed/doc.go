// Package banknavfixed is the fixed twin of package banknav (the bank
// example of the AVFilter evaluation, "bank-nav").
//
// Fixed: Transfer records the journal entry (Bank.last) inside the
// transaction, so every access to it holds Bank.tx. Together with the
// transaction lock around the balance updates this leaves no race, AV or
// ASV: nothing should be reported.
package banknavfixed
