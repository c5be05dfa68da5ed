package banknav

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
	return a.balance
}

// Set sets the balance.
func (a *Account) Set(v int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance = v
}

// Bank holds accounts.
type Bank struct {
	tx    sync.Mutex // transaction lock
	accts []*Account
	seq   int // transfers committed
	last  int // sequence number of the latest transfer
}

// New returns a bank of n accounts, each holding initial.
func New(n, initial int) *Bank {
	b := &Bank{accts: make([]*Account, n)}
	for i := range b.accts {
		b.accts[i] = &Account{balance: initial}
	}
	return b
}

// Transfer moves amount from account from to account to, as one
// transaction, and journals it.
func (b *Bank) Transfer(from, to, amount int) {
	b.tx.Lock()
	f, t := b.accts[from], b.accts[to]
	f.Set(f.Balance() - amount)
	t.Set(t.Balance() + amount)
	b.seq++
	id := b.seq
	b.tx.Unlock()

	b.last = id // want "data race on Bank\\.last"
}

// LastTransfer returns the sequence number of the latest transfer.
func (b *Bank) LastTransfer() int {
	b.tx.Lock()
	defer b.tx.Unlock()
	return b.last
}

// Balances returns all balances.
func (b *Bank) Balances() []int {
	b.tx.Lock()
	defer b.tx.Unlock()
	out := make([]int, len(b.accts))
	for i, a := range b.accts {
		out[i] = a.Balance()
	}
	return out
}
