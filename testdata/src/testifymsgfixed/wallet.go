package testifymsgfixed

import "sync"

// Wallet holds coins.
type Wallet struct {
	mu    sync.Mutex
	coins int
}

// Coins returns the coins held.
func (w *Wallet) Coins() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.coins
}

// Deposit adds n coins.
func (w *Wallet) Deposit(n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.coins += n
}
