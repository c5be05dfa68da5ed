// Package bank is pecanvet's demo: accounts whose every method locks, and a
// transfer that is still wrong.
package bank

import "sync"

// Account is a bank account; its methods are safe for concurrent use.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Balance returns the current balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Set replaces the balance.
func (a *Account) Set(v int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance = v
}

// Deposit adds amount to the account. Each call locks, yet a deposit that
// runs between another's Balance and Set is lost: an atomicity violation
// that go test -race cannot see, because every access holds the lock.
func (a *Account) Deposit(amount int) {
	b := a.Balance()
	a.Set(b + amount)
}
