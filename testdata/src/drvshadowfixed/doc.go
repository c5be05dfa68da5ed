// Package drvshadowfixed is drvshadow with the check and the debit in one
// critical section (ledger.go:36-42): two concurrent Withdraw(7) after a
// Deposit(10) leave one ErrFunds and Balance() = 3, as either order does.
// The generated driver copies TestWithdraw's setup, asserting the
// variable `ledger` through the file's alias of *ledger, as for
// drvshadow; nothing should be reported.
package drvshadowfixed
