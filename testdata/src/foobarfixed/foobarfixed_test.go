package foobarfixed

import (
	"sync"
	"testing"
	"time"
)

func TestReport(t *testing.T) {
	p := NewPoint(0, 3)
	var wg sync.WaitGroup
	var x int
	wg.Add(1)
	go func() { // the reporter
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		x = Bar(p)
	}()
	Foo(p)
	wg.Wait()
	if x != 10 {
		t.Errorf("x = %d, want 10", x)
	}
}
