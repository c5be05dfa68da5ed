// Package drvledger is the ledger shape of issue 27: a Ledger whose
// Withdraw checks the balance in one critical section and debits it in
// another (the classic check-then-act), built empty by NewLedger. Its only
// test is sequential: it deposits 10, then withdraws 7 twice and expects
// the second to fail with ErrFunds (ledger_test.go:8-20).
//
// Unlike the ledger subject, whose tests build the ledger with a constant
// balance, this one can only be driven with the test's own setup: on a new
// ledger both Withdraws fail at once. The generated driver (static/driver)
// copies TestWithdraw up to its first Withdraw (ledger_test.go:9-10:
// NewLedger() and Deposit(10)) and calls Withdraw(7) and Withdraw(7) from
// two goroutines. In the recorded run the second check reads the first
// debit and fails, so no write falls between the other's check and debit;
// the driver's stale-read pattern (av/RRW: the second check moved before
// the first debit) makes the second Withdraw take the other path.
//
// Known bug: atomicity violation on Ledger.balance between the check at
// ledger.go:30 and the debit at ledger.go:36. Both Withdraw(7) succeed and
// leave Balance() = -4, which neither order gives (one of them returns
// ErrFunds and Balance() is 3).
//
// Every access holds the mutex, so go test -race flags nothing, and the
// test, being sequential, shows nothing either.
package drvledger
