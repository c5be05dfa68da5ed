package abba

import "sync"

// Account is a balance under its own lock.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Transfer moves amount from one account to another, holding both locks:
// the source's first, then the target's.
func Transfer(from, to *Account, amount int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // want "lock-order inversion: g[0-9.]+ holds Account\\.mu#1 \\(bank\\.go:14\\) and waits for Account\\.mu#2 \\(bank\\.go:16\\); g[0-9.]+ holds Account\\.mu#2 \\(bank\\.go:14\\) and waits for Account\\.mu#1 \\(bank\\.go:16\\); reproduced, the replay deadlocks"
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}

// Balance returns a's balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}
