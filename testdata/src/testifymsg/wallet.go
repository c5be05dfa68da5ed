package testifymsg

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
	return w.coins // want "atomicity violation on Wallet\\.coins.*test fails: wallet_test\\.go:\\d+: coins after both deposits: Not equal: expected: 60, actual: (40|50)"
}

func (w *Wallet) set(n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.coins = n
}

// Deposit adds n coins.
func (w *Wallet) Deposit(n int) {
	w.set(w.Coins() + n)
}
