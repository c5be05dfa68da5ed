package account

import "sync"

// Account is a bank account. Its balance is guarded by mu.
type Account struct {
	mu      sync.Mutex
	name    string
	balance int
}

// New returns an account holding the given initial balance.
func New(name string, balance int) *Account {
	return &Account{name: name, balance: balance}
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
	b := a.balance         // want "data race on Account\\.balance" "atomicity violation on Account\\.balance"
	a.balance = b + amount // want "data race on "
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

// Transfer moves amount from a to to. It locks a only: the author assumed
// that holding the source account's lock was enough.
func (a *Account) Transfer(to *Account, amount int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < amount {
		return false
	}
	a.balance -= amount
	to.balance += amount
	return true
}
