package drvledger

import (
	"errors"
	"sync"
)

// ErrFunds is returned by Withdraw when the balance does not cover it.
var ErrFunds = errors.New("drvledger: insufficient funds")

// Ledger holds a balance. It is safe for concurrent use.
type Ledger struct {
	mu      sync.Mutex
	balance int
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{} }

// Deposit credits n.
func (l *Ledger) Deposit(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.balance += n
}

// Withdraw debits n if the balance covers it, else returns ErrFunds.
func (l *Ledger) Withdraw(n int) error {
	l.mu.Lock()
	ok := l.balance >= n // want "atomicity violation on Ledger\\.balance.*found by a generated driver calling Withdraw and Withdraw concurrently"
	l.mu.Unlock()
	if !ok {
		return ErrFunds
	}
	l.mu.Lock()
	l.balance -= n
	l.mu.Unlock()
	return nil
}

// Balance returns the balance.
func (l *Ledger) Balance() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balance
}
