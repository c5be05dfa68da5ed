// Package reachfirst has two tests: the first in source order reaches no
// static candidate, the second runs Account.Add from two goroutines.
package reachfirst

import "sync"

type Account struct {
	mu      sync.Mutex
	balance int
}

// Add reads the balance in one critical section and writes it in
// another: an atomicity violation when two Adds interleave.
func (a *Account) Add(n int) {
	a.mu.Lock()
	b := a.balance
	a.mu.Unlock()
	a.mu.Lock()
	a.balance = b + n
	a.mu.Unlock()
}

func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Double doubles x in another goroutine.
func Double(x int) int {
	c := make(chan int)
	go func() { c <- 2 * x }()
	return <-c
}
