// Package notests has no tests: pecanvet finds its atomicity violation
// through a generated driver that calls Deposit from two goroutines.
package notests

import "sync"

// Account is a bank account.
type Account struct {
	mu      sync.Mutex
	balance int
}

// NewAccount returns an empty account.
func NewAccount() *Account { return &Account{} }

// Balance returns the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance // want "atomicity violation on Account.balance"
}

// Set replaces the balance.
func (a *Account) Set(v int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance = v
}

// Deposit adds amount: two critical sections, so not atomic.
func (a *Account) Deposit(amount int) {
	a.Set(a.Balance() + amount)
}
