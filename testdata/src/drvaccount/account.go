package drvaccount

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
	return a.balance // want "data race on Account\\.balance.*found by a generated driver calling Balance and Deposit concurrently \\(Account is meant for concurrent use: it holds a sync\\.Mutex\\)"
}

// Withdraw debits n if the balance covers it, and reports whether it did.
func (a *Account) Withdraw(n int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < n { // want "data race on Account\\.balance.*found by a generated driver calling Deposit and Withdraw"
		return false
	}
	a.balance -= n
	return true
}

// Deposit credits n.
func (a *Account) Deposit(n int) {
	// The mutex is forgotten here.
	a.balance += n // want "data race on Account\\.balance.*left Balance\\(\\) = 1; called one after the other, they left Balance\\(\\) = 2.*found by a generated driver calling Deposit and Deposit" "atomicity violation on Account\\.balance"
}
