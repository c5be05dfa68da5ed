// Package drvaccountfixed is drvaccount with Deposit taking the mutex
// too: every access to Account.balance holds it, and two methods called
// from two goroutines by a generated driver give an outcome of one of
// their sequential orders. Nothing should be reported.
package drvaccountfixed
