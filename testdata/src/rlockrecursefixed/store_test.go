package rlockrecursefixed

import (
	"sync"
	"testing"
	"time"
)

func TestGetWhileSetting(t *testing.T) {
	s := &Store{vals: map[string]int{"a": 1}, def: 7}
	var wg sync.WaitGroup
	wg.Add(2)
	var got int
	go func() {
		defer wg.Done()
		got = s.Get("b") // not set: the default
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the default changes a little later
		s.SetDefault(9)
	}()
	wg.Wait()
	if got != 7 && got != 9 {
		t.Errorf("Get = %d, want the default", got)
	}
}
