package ledger

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

// Withdraw debits amount if the balance covers it.
func (l *Ledger) Withdraw(amount int) error {
	l.mu.Lock()
	bal := l.balance // want "atomicity violation on Ledger\\.balance.*found by a generated driver calling Withdraw and Withdraw concurrently"
	l.mu.Unlock()
	if bal < amount {
		return ErrInsufficient
	}
	// The balance is checked; debit it.
	l.mu.Lock()
	l.balance = bal - amount
	l.mu.Unlock()
	return nil
}

// Balance returns the balance.
func (l *Ledger) Balance() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balance
}
