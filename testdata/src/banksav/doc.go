// Package banksav is the "bank-sav" variant of the bank example in the
// AVFilter evaluation (Table 3): like package bankav, but each account has a
// condition variable, and a transfer waits until the source account has
// enough money (WaitFor) instead of overdrawing it. This is the partial fix
// of the paper: it avoids overdrafts but not the atomicity violations.
//
// Known bug: atomicity violations (RWW, also RWR/WWR) on every
// Account.balance. Transfer reads the source balance in WaitFor (the read at
// bank.go:29) and writes it back with Set (the write at bank.go:39) in
// separate critical sections, and reads the target balance (Balance, the
// read at bank.go:22) and writes it (Set) the same way. If another transfer
// on the same account runs in between, one update is lost (TestTransfers
// fails: wrong balances, wrong total).
//
// Every access is made with the account's mutex held, so go test -race does
// not flag it.
package banksav
