package bank

import (
	"testing"
	"time"
)

func TestDeposits(t *testing.T) {
	a := &Account{}
	done := make(chan bool)
	go func() {
		time.Sleep(5 * time.Millisecond) // the second customer comes later
		a.Deposit(20)
		done <- true
	}()
	a.Deposit(10)
	<-done
	if got := a.Balance(); got != 30 {
		t.Errorf("balance = %d, want 30", got)
	}
}
