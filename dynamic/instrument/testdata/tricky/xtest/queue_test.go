package xtest_test

import (
	"testing"

	. "example.com/tricky/xtest"
)

func TestQueue(t *testing.T) {
	q := NewQueue()
	done := make(chan int)
	go func() {
		s := 0
		for i := 0; i < 3; i++ {
			s += q.Take()
		}
		done <- s
	}()
	for i := 1; i <= 3; i++ {
		q.Put(i)
	}
	if s := <-done; s != 6 {
		t.Error(s)
	}
	if Lookup("y") != 2 {
		t.Error("lookup")
	}
}
