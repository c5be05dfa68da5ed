package drvshadow

import (
	"errors"
	"sync"
)

// ErrFunds is returned by Withdraw when the balance does not cover it.
var ErrFunds = errors.New("drvshadow: insufficient funds")

// Ledger is an account. Its implementation is safe for concurrent use.
type Ledger interface {
	Deposit(n int)
	Withdraw(n int) error
	Balance() int
}

// ledger holds a balance.
type ledger struct {
	mu      sync.Mutex
	balance int
}

// NewLedger returns an empty ledger.
func NewLedger() Ledger { return &ledger{} }

// Deposit credits n.
func (lg *ledger) Deposit(n int) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	lg.balance += n
}

// Withdraw debits n if the balance covers it, else returns ErrFunds.
func (lg *ledger) Withdraw(n int) error {
	lg.mu.Lock()
	ok := lg.balance >= n // want "atomicity violation on ledger\\.balance.*found by a generated driver calling Withdraw and Withdraw concurrently"
	lg.mu.Unlock()
	if !ok {
		return ErrFunds
	}
	lg.mu.Lock()
	lg.balance -= n
	lg.mu.Unlock()
	return nil
}

// Balance returns the balance.
func (lg *ledger) Balance() int {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	return lg.balance
}
