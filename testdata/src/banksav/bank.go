package banksav

import "sync"

// Account is a bank account.
type Account struct {
	mu      sync.Mutex
	funds   *sync.Cond // signaled when the balance changes
	balance int
}

func newAccount(balance int) *Account {
	a := &Account{balance: balance}
	a.funds = sync.NewCond(&a.mu)
	return a
}

// Balance returns the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance // want "atomicity violation on "
}

// WaitFor waits until the balance is at least amount and returns it.
func (a *Account) WaitFor(amount int) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	for a.balance < amount {
		a.funds.Wait()
	}
	return a.balance
}

// Set sets the balance.
func (a *Account) Set(v int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance = v
	a.funds.Broadcast()
}

// Bank holds accounts.
type Bank struct {
	accts []*Account
}

// New returns a bank of n accounts, each holding initial.
func New(n, initial int) *Bank {
	b := &Bank{accts: make([]*Account, n)}
	for i := range b.accts {
		b.accts[i] = newAccount(initial)
	}
	return b
}

// Transfer moves amount from account from to account to, waiting until
// from holds enough.
func (b *Bank) Transfer(from, to, amount int) {
	f, t := b.accts[from], b.accts[to]
	f.Set(f.WaitFor(amount) - amount)
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
