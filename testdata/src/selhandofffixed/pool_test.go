package selhandofffixed

import (
	"testing"
	"time"
)

func TestScheduleRelease(t *testing.T) {
	p := New(1)
	time.Sleep(50 * time.Millisecond) // the worker waits for a task, the miner for room
	done := make(chan bool, 1)
	p.Schedule(func() { done <- true })
	if !<-done {
		t.Fatal("the task did not run")
	}
	p.Release()
}
