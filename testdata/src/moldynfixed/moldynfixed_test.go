package moldynfixed

import (
	"sync"
	"testing"
	"time"
)

func TestStep(t *testing.T) {
	const n, a = 16, 1.1
	s := NewLattice(n, a)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the second worker is scheduled later
		s.Worker(1, 2)
	}()
	s.Worker(0, 2)
	wg.Wait()

	epot, vir := s.Totals()
	wantE, wantV := Reference(n, 2, a)
	if epot != wantE || vir != wantV {
		t.Errorf("epot, vir = %v, %v; want %v, %v", epot, vir, wantE, wantV)
	}
	sum := 0.0
	for _, f := range s.force {
		sum += f
	}
	if sum > 1e-9 || sum < -1e-9 {
		t.Errorf("net force %g, want 0", sum)
	}
}
