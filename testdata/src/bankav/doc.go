// Package bankav is a Go version of the parameterized bank example of
// Farchi, Nir and Ur used in the AVFilter evaluation (Table 3, "bank-av-8"):
// accounts whose balance accessors each hold the account's mutex, and a
// Transfer that reads and writes the two balances through them.
// TestTransfers runs one transfer goroutine per account, around a ring of
// accounts.
//
// Known bug: atomicity violations (RWW, also RWR/WWR) on every
// Account.balance. Transfer reads the source balance (Balance, the read at
// bank.go:15) and writes it back (Set, the write at bank.go:22) in separate
// critical sections, and then does the same for the target. If another
// transfer on the same account runs in between, one update is lost and money
// is created or destroyed (TestTransfers fails: wrong balances, wrong
// total).
//
// Every access is made with the account's mutex held, so go test -race does
// not flag it.
package bankav
