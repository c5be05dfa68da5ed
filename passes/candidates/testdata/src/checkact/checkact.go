// Package checkact is a check-then-act under two separate critical
// sections: every access holds the lock, so there is no race, but another
// withdrawal can run between the check and the act.
package checkact

import "sync"

type Account struct {
	mu      sync.Mutex
	balance int
}

func (a *Account) Withdraw(n int) bool {
	a.mu.Lock()
	ok := a.balance >= n // want `^candidate av RWR: checkact.go:15:10 checkact.go:21:4 checkact.go:21:4$` `^candidate av RWW: checkact.go:15:10 checkact.go:21:4 checkact.go:21:4$` `^candidate av RWR: checkact.go:15:10 checkact.go:28:4 checkact.go:21:4$` `^candidate av RWW: checkact.go:15:10 checkact.go:28:4 checkact.go:21:4$`
	a.mu.Unlock()
	if !ok {
		return false
	}
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
	return true
}

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	a.balance += n
	a.mu.Unlock()
}
