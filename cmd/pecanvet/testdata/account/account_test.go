package account

import (
	"sync"
	"testing"
	"time"
)

func TestTransferAndDeposit(t *testing.T) {
	alice := New("alice", 100)
	bob := New("bob", 100)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // payday comes a little later
		bob.Deposit(50)
	}()
	if !alice.Transfer(bob, 30) {
		t.Fatal("transfer refused")
	}
	wg.Wait()

	if got := alice.Balance(); got != 70 {
		t.Errorf("alice = %d, want 70", got)
	}
	if got := bob.Balance(); got != 180 {
		t.Errorf("bob = %d, want 180", got)
	}
}

func TestWithdraw(t *testing.T) {
	a := New("carol", 10)
	if a.Withdraw(20) {
		t.Error("overdraft allowed")
	}
	if !a.Withdraw(10) || a.Balance() != 0 {
		t.Errorf("balance = %d, want 0", a.Balance())
	}
}
