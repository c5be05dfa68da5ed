package ledgerfixed

import (
	"errors"
	"sync"
)

// ErrInsufficient is returned by Withdraw when the balance is too low.
var ErrInsufficient = errors.New("ledger: insufficient funds")

// Ledger holds a balance.
type Ledger struct {
	mu      sync.Mutex
	balance int
}

// NewLedger returns a ledger holding balance.
func NewLedger(balance int) *Ledger {
	return &Ledger{balance: balance}
}

// Withdraw debits amount if the balance covers it, in one critical
// section.
func (l *Ledger) Withdraw(amount int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.balance < amount {
		return ErrInsufficient
	}
	l.balance -= amount
	return nil
}

// Balance returns the balance.
func (l *Ledger) Balance() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balance
}
