package bankav

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestTransfers(t *testing.T) {
	const n = 3
	b := New(n, 100)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { // teller i moves 10*(i+1) to the next account
			defer wg.Done()
			time.Sleep(time.Duration(i) * 3 * time.Millisecond)
			b.Transfer(i, (i+1)%n, 10*(i+1))
		}()
	}
	wg.Wait()

	if got, want := b.Balances(), []int{120, 90, 90}; !slices.Equal(got, want) {
		t.Errorf("balances %v, want %v", got, want)
	}
}
