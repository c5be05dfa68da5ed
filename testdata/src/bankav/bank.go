package bankav

import "sync"

// Account is a bank account.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Balance returns the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance // want "atomicity violation on Account\\.balance"
}

// Set sets the balance.
func (a *Account) Set(v int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance = v
}

// Bank holds accounts.
type Bank struct {
	accts []*Account
}

// New returns a bank of n accounts, each holding initial.
func New(n, initial int) *Bank {
	b := &Bank{accts: make([]*Account, n)}
	for i := range b.accts {
		b.accts[i] = &Account{balance: initial}
	}
	return b
}

// Transfer moves amount from account from to account to.
func (b *Bank) Transfer(from, to, amount int) {
	f, t := b.accts[from], b.accts[to]
	f.Set(f.Balance() - amount)
	t.Set(t.Balance() + amount)
}

// Balances returns all balances.
func (b *Bank) Balances() []int {
	out := make([]int, len(b.accts))
	for i, a := range b.accts {
		out[i] = a.Balance()
	}
	return out
}
