package elevator

import (
	"maps"
	"sync"
	"testing"
	"time"
)

func TestTwoLifts(t *testing.T) {
	b := NewBuilding()
	b.Call(3)
	b.Call(5)
	l1, l2 := NewLift(b), NewLift(b)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the second lift becomes idle later
		l2.ServeNext()
	}()
	l1.ServeNext()
	wg.Wait()

	if got, want := b.Served(), map[int]int{3: 1, 5: 1}; !maps.Equal(got, want) {
		t.Errorf("served %v, want %v", got, want)
	}
	if l1.floor != 3 || l2.floor != 5 {
		t.Errorf("lifts at %d and %d, want 3 and 5", l1.floor, l2.floor)
	}
}
