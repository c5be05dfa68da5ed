// Package kubernetes81148 reduces kubernetes/kubernetes#81148
// (https://github.com/kubernetes/kubernetes/pull/81148, scheduler: fix a
// data race in the scheduling queue's test).
//
// The priority queue's background goroutine, flushUnschedulableQLeftover,
// reads every unschedulable pod's Timestamp under p.lock. The test adds a
// pod and then backdates its Timestamp directly, without p.lock: a data
// race with the flush.
//
// Upstream fix: the test updates the pod info under p.lock.
package kubernetes81148

import (
	"sync"
	"time"
)

const unschedulableQTimeInterval = 60 * time.Second

// PodInfo is a pod with the time it was added.
type PodInfo struct {
	Pod       string
	Timestamp time.Time
}

// PriorityQueue is the scheduling queue.
type PriorityQueue struct {
	lock           sync.RWMutex
	unschedulableQ map[string]*PodInfo
	activeQ        []string
}

func newPriorityQueue() *PriorityQueue {
	return &PriorityQueue{unschedulableQ: map[string]*PodInfo{}}
}

func (p *PriorityQueue) run(stop <-chan struct{}, period time.Duration) {
	go func() {
		for {
			p.flushUnschedulableQLeftover()
			select {
			case <-stop:
				return
			case <-time.After(period):
			}
		}
	}()
}

func (p *PriorityQueue) flushUnschedulableQLeftover() {
	p.lock.Lock()
	defer p.lock.Unlock()
	now := time.Now()
	for name, pInfo := range p.unschedulableQ {
		if now.Sub(pInfo.Timestamp) > unschedulableQTimeInterval {
			p.activeQ = append(p.activeQ, name)
			delete(p.unschedulableQ, name)
		}
	}
}

func (p *PriorityQueue) addUnschedulable(pod string) {
	p.lock.Lock()
	defer p.lock.Unlock()
	p.unschedulableQ[pod] = &PodInfo{Pod: pod, Timestamp: time.Now()}
}
