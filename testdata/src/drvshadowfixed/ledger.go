package drvshadowfixed

import (
	"errors"
	"sync"
)

// ErrFunds is returned by Withdraw when the balance does not cover it.
var ErrFunds = errors.New("drvshadowfixed: insufficient funds")

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

// Withdraw debits n if the balance covers it, else returns ErrFunds. The
// check and the debit are one critical section.
func (lg *ledger) Withdraw(n int) error {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	if lg.balance < n {
		return ErrFunds
	}
	lg.balance -= n
	return nil
}

// Balance returns the balance.
func (lg *ledger) Balance() int {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	return lg.balance
}
