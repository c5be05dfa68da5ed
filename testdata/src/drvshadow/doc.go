// Package drvshadow is drvledger's check-then-act behind an interface:
// NewLedger returns a Ledger interface whose implementation is the
// unexported *ledger, and the only test names its variable after that
// type (`ledger := NewLedger()`, ledger_test.go:9), as pond's tests name
// theirs `pool` (`pool := NewPool(10)`, whose concrete type is *pool). The
// test is sequential: it deposits 10, then withdraws 7 twice and expects
// the second to fail with ErrFunds.
//
// The generated driver (static/driver) copies TestWithdraw up to its
// first Withdraw and asserts the variable to the concrete type. Written
// `ledger.(*ledger)`, that names the variable, not the type, and the
// driver did not compile: it was built without the setup, on a zero
// ledger whose Withdraws both fail at once, and the bug went unseen. The
// driver file now declares `type pecanvetT_ledger = *ledger` and asserts
// to that.
//
// Known bug: atomicity violation on ledger.balance between the check at
// ledger.go:37 and the debit at ledger.go:43. Both Withdraw(7) succeed and
// leave Balance() = -4, which neither order gives (one of them returns
// ErrFunds and Balance() is 3).
//
// Every access holds the mutex, so go test -race flags nothing, and the
// test, being sequential, shows nothing either.
package drvshadow
