// Package ledgerfixed is ledger fixed: Withdraw checks and debits in one
// critical section, so another Withdraw cannot fall between the check and
// the debit. The generated driver calling Withdraw and Withdraw from two
// goroutines, if any is generated, finds nothing: nothing should be
// reported.
package ledgerfixed
