package hardcheckfixed

import (
	"sync"
	"testing"
	"time"
)

func TestFooBar(t *testing.T) {
	o := NewXObject()
	var wg sync.WaitGroup
	var err error
	wg.Add(1)
	go func() { // thread 1: foo(o), reaching line 8 late
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		err = Foo(o)
	}()
	Bar(o) // thread 2: bar(o)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(o.log) != 6 {
		t.Errorf("log %v", o.log)
	}
}
