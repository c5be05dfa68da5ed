// Package account is a Go version of the ConTest "Account" program (PECAN
// Table 1, first row): bank accounts whose deposits and withdrawals are each
// protected by the account's own mutex, plus a Transfer that moves money
// from one account to another.
//
// Known bug: data race (and the lost update it allows, an atomicity
// violation RWW on the target balance). Transfer holds only the source
// account's lock while it updates the target's balance field
// Account.balance: the read and the write at account.go:53 race with the
// read at account.go:28 and the write at account.go:29 of a concurrent
// Deposit on the target account, which holds the target's lock. If the
// deposit runs between the transfer's read and write of the target balance,
// one of the two updates is lost: the total amount of money changes
// (TestTransferAndDeposit fails with a wrong balance).
//
// go test -race flags it in a single run (the transfer's access is not
// ordered with the deposit's by any lock both hold).
package account
