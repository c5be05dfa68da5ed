package kubernetes62464

import (
	"sync"
	"testing"
	"time"
)

func TestReconcileWhileRemoving(t *testing.T) {
	s := newStateMemory()
	s.assignments["c1"] = CPUSet{4, 5}
	m := &manager{state: s, policy: &staticPolicy{}}
	var wg sync.WaitGroup
	wg.Add(2)
	var got CPUSet
	go func() {
		defer wg.Done()
		got = m.reconcileState("c2") // not assigned: the default set
	}()
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond) // the container is removed later
		m.policy.RemoveContainer(s, "c1")
	}()
	wg.Wait()
	if len(got) < 4 {
		t.Errorf("reconcileState = %v, want the default set", got)
	}
	if d := s.GetDefaultCPUSet(); len(d) != 6 {
		t.Errorf("default set = %v, want 6 CPUs", d)
	}
}
