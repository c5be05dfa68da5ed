// Package kubernetes62464 reduces kubernetes/kubernetes#62464
// (https://github.com/kubernetes/kubernetes/pull/62464, kubelet CPU
// manager: fix a recursive read lock in the in-memory state).
//
// stateMemory.GetCPUSetOrDefault holds s.RLock and calls GetCPUSet and
// GetDefaultCPUSet, which take s.RLock again. sync.RWMutex forbids
// recursive read locking: if the static policy's RemoveContainer calls
// SetDefaultCPUSet (s.Lock) between the two, the writer waits for the
// first read lock, and the second RLock waits behind the writer. Deadlock:
// reconcileState and RemoveContainer both blocked for ever.
//
// Upstream fix: GetCPUSetOrDefault reads the maps directly under its one
// read lock instead of calling the locking getters.
package kubernetes62464

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
	if res, ok := s.GetCPUSet(containerID); ok {
		return res
	}
	time.Sleep(time.Millisecond) // the lookup's cost, between the two read locks
	return s.GetDefaultCPUSet()
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
