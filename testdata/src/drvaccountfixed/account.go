package drvaccountfixed

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
	return a.balance
}

// Withdraw debits n if the balance covers it, and reports whether it did.
func (a *Account) Withdraw(n int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < n {
		return false
	}
	a.balance -= n
	return true
}

// Deposit credits n.
func (a *Account) Deposit(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += n
}
