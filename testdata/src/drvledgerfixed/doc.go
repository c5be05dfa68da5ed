// Package drvledgerfixed is drvledger with the check and the debit in one
// critical section (ledger.go:29-35): two concurrent Withdraw(7) after a
// Deposit(10) leave one ErrFunds and Balance() = 3, as either order does.
// The generated driver copies TestWithdraw's setup as for drvledger;
// nothing should be reported.
package drvledgerfixed
