// Package kubernetes81148fixed is kubernetes81148 with the upstream fix of
// https://github.com/kubernetes/kubernetes/pull/81148: the test backdates
// the pod under p.lock.
package kubernetes81148fixed

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
