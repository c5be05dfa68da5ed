// Package accountfixed is the fixed twin of package account (ConTest
// "Account", PECAN Table 1).
//
// Fixed: Transfer now holds both accounts' locks while it moves the money,
// taking them in a global order (by account id) so that two opposite
// transfers cannot deadlock. Every access to a balance is made with that
// account's lock held, so no race, atomicity violation or ASV exists and
// nothing should be reported.
package accountfixed
