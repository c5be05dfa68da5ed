package accountfixed

import (
	"sync"
	"sync/atomic"
)

var nextID atomic.Int64

// Account is a bank account. Its balance is guarded by mu.
type Account struct {
	mu      sync.Mutex
	id      int64 // lock order
	name    string
	balance int
}

// New returns an account holding the given initial balance.
func New(name string, balance int) *Account {
	return &Account{id: nextID.Add(1), name: name, balance: balance}
}

// Balance returns the current balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Deposit adds amount to the balance.
func (a *Account) Deposit(amount int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b := a.balance
	a.balance = b + amount
}

// Withdraw takes amount from the balance; it reports false and changes
// nothing when the balance is too small.
func (a *Account) Withdraw(amount int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < amount {
		return false
	}
	a.balance -= amount
	return true
}

// Transfer moves amount from a to to, holding both accounts' locks.
func (a *Account) Transfer(to *Account, amount int) bool {
	first, second := a, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if a.balance < amount {
		return false
	}
	a.balance -= amount
	to.balance += amount
	return true
}
