package managerfixed

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestClients(t *testing.T) {
	m := New(4)
	ids := make([]int, 4)
	var wg sync.WaitGroup
	for c := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(c) * 3 * time.Millisecond) // clients log in one by one
			id, err := m.Acquire(fmt.Sprint("client", c))
			if err != nil {
				t.Error(err)
				return
			}
			ids[c] = id
		}()
	}
	wg.Wait()

	seen := map[int]bool{}
	for c, id := range ids {
		if seen[id] {
			t.Errorf("resource %d given to two clients", id)
		}
		seen[id] = true
		if got, want := m.Owner(id), fmt.Sprint("client", c); got != want {
			t.Errorf("owner of %d = %q, want %q", id, got, want)
		}
	}
	m.Release(ids[0])
	if _, err := m.Acquire("late"); err != nil {
		t.Error(err)
	}
}
