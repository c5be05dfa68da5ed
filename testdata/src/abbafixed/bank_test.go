package abbafixed

import (
	"sync"
	"testing"
	"time"
)

func TestTransfers(t *testing.T) {
	alice := &Account{id: 1, balance: 100}
	bob := &Account{id: 2, balance: 100}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		Transfer(alice, bob, 10)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // bob pays back a little later
		Transfer(bob, alice, 20)
	}()
	wg.Wait()
	if a, b := alice.Balance(), bob.Balance(); a != 110 || b != 90 {
		t.Errorf("alice = %d, bob = %d, want 110 and 90", a, b)
	}
}
