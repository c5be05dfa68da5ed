package montecarlofixed

import (
	"sync"
	"testing"
	"time"
)

func TestSimulate(t *testing.T) {
	tasks := []Task{
		{Seed: 1, Paths: 200, Steps: 20},
		{Seed: 2, Paths: 200, Steps: 20},
		{Seed: 3, Paths: 200, Steps: 20},
		{Seed: 4, Paths: 200, Steps: 20},
	}
	var s Sim
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the second worker starts later
		s.Worker(tasks[2:])
	}()
	s.Worker(tasks[:2])
	wg.Wait()

	ups, paths := s.Result()
	wantUps, wantPaths := Sequential(tasks)
	if ups != wantUps || paths != wantPaths {
		t.Errorf("result = %d/%d, want %d/%d", ups, paths, wantUps, wantPaths)
	}
}
