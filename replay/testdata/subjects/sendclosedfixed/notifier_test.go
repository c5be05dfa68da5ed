package sendclosedfixed

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestNotifyThenClose(t *testing.T) {
	n := New(4)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // shutdown
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		n.Close()
	}()
	if !n.Notify("started") {
		t.Error("Notify refused before Close")
	}
	wg.Wait()
	if n.Notify("late") {
		t.Error("Notify accepted after Close")
	}

	var got []string
	for ev := range n.C() {
		got = append(got, ev)
	}
	if !slices.Equal(got, []string{"started"}) {
		t.Errorf("received %v", got)
	}
}
