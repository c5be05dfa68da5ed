package abbafixed

import "sync"

// Account is a balance under its own lock.
type Account struct {
	mu      sync.Mutex
	id      int
	balance int
}

// Transfer moves amount from one account to another, holding both locks,
// always taken in the order of the accounts' ids.
func Transfer(from, to *Account, amount int) {
	first, second := from, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}

// Balance returns a's balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}
