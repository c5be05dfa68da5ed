package stopwait

import (
	"sync"
	"testing"
	"time"
)

// wait returns a channel that is sent true once wg is done (robfig/cron's
// test helper).
func wait(wg *sync.WaitGroup) chan bool {
	ch := make(chan bool)
	go func() {
		wg.Wait()
		ch <- true
	}()
	return ch
}

func TestPool(t *testing.T) {
	p := New(time.Hour)
	var wg sync.WaitGroup
	wg.Add(1)
	p.Submit(wg.Done)
	select {
	case <-wait(&wg):
	case <-time.After(time.Second):
		t.Fatal("the task did not run")
	}
	if err := p.StopAndWaitFor(time.Second); err != nil {
		t.Error(err)
	}
}
