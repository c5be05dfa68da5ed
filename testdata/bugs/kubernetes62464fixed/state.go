// Package kubernetes62464fixed is kubernetes62464 with the upstream fix of
// https://github.com/kubernetes/kubernetes/pull/62464: GetCPUSetOrDefault
// reads the maps under its single read lock and calls no locking getter.
package kubernetes62464fixed

import (
	"sync"
	"time"
)

// CPUSet is a set of CPU ids.
type CPUSet []int

type stateMemory struct {
	sync.RWMutex
	assignments   map[string]CPUSet
	defaultCPUSet CPUSet
}

func newStateMemory() *stateMemory {
	return &stateMemory{assignments: map[string]CPUSet{}, defaultCPUSet: CPUSet{0, 1, 2, 3}}
}

func (s *stateMemory) GetCPUSet(containerID string) (CPUSet, bool) {
	s.RLock()
	defer s.RUnlock()
	res, ok := s.assignments[containerID]
	return res, ok
}

func (s *stateMemory) GetDefaultCPUSet() CPUSet {
	s.RLock()
	defer s.RUnlock()
	return s.defaultCPUSet
}

func (s *stateMemory) GetCPUSetOrDefault(containerID string) CPUSet {
	s.RLock()
	defer s.RUnlock()
	if res, ok := s.assignments[containerID]; ok {
		return res
	}
	time.Sleep(time.Millisecond) // the lookup's cost, as in the buggy version
	return s.defaultCPUSet
}

func (s *stateMemory) SetDefaultCPUSet(cset CPUSet) {
	s.Lock()
	defer s.Unlock()
	s.defaultCPUSet = cset
}

type staticPolicy struct{}

// RemoveContainer gives the container's CPUs back to the default set.
func (p *staticPolicy) RemoveContainer(s *stateMemory, containerID string) {
	if cset, ok := s.GetCPUSet(containerID); ok {
		s.SetDefaultCPUSet(append(append(CPUSet{}, s.GetDefaultCPUSet()...), cset...))
	}
}

type manager struct {
	state  *stateMemory
	policy *staticPolicy
}

func (m *manager) reconcileState(containerID string) CPUSet {
	return m.state.GetCPUSetOrDefault(containerID)
}
