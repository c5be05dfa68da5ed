// Package ledger is a Go idiom, the check-then-act split across two
// critical sections: a ledger whose Withdraw checks the balance under the
// mutex, unlocks, and debits under the mutex again. Its tests call it only
// sequentially, as a new user's tests would, so no recorded run has two
// goroutines in it: pecanvet finds the bug through a generated driver
// (ssatrace/driver) that calls Withdraw and Withdraw from two goroutines,
// built from the candidate pair the static analysis names
// (passes/candidates), with the constructor call and the amount the tests
// use (NewLedger(100), Withdraw(60)).
//
// Known bug: atomicity violation (RWW) on Ledger.balance: the read at
// ledger.go:25 (the check) and the write at ledger.go:32 (the debit) are
// in separate critical sections; another Withdraw's debit can fall in
// between. Both withdrawals of 60 from 100 succeed and the balance ends at
// -20, which neither order of the two calls gives (one of them must fail
// with ErrInsufficient and leave 40).
//
// Every access holds the mutex, so go test -race flags nothing, and the
// tests, being sequential, show nothing either.
package ledger
