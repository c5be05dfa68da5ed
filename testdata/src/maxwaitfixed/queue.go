package maxwaitfixed

import (
	"sync"
	"time"
)

// job is a submitted function and when it was submitted.
type job struct {
	f  func()
	at time.Time
}

// Queue runs submitted jobs in order on one worker; a job that waited
// longer than MaxWait is dropped instead (CoDel's shedding).
type Queue struct {
	MaxWait time.Duration
	statsMu sync.Mutex
	size    int // jobs waiting (stats)
	dropped int
	mu      sync.Mutex
	jobs    []job
	wake    chan struct{}
}

// New starts a queue's worker.
func New(maxWait time.Duration) *Queue {
	q := &Queue{MaxWait: maxWait, wake: make(chan struct{}, 1)}
	go q.run()
	return q
}

// Submit queues f.
func (q *Queue) Submit(f func()) {
	q.statsMu.Lock()
	q.size++
	q.statsMu.Unlock()
	q.mu.Lock()
	q.jobs = append(q.jobs, job{f: f, at: time.Now()})
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Cancel drops the jobs not started yet.
func (q *Queue) Cancel() {
	q.mu.Lock()
	q.jobs = nil
	q.mu.Unlock()
}

// Len returns the number of jobs waiting.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs)
}

// Dropped returns the number of jobs dropped for waiting too long.
func (q *Queue) Dropped() int {
	q.statsMu.Lock()
	defer q.statsMu.Unlock()
	return q.dropped
}

func (q *Queue) run() {
	for {
		q.mu.Lock()
		if len(q.jobs) == 0 {
			q.mu.Unlock()
			<-q.wake
			continue
		}
		j := q.jobs[0]
		q.jobs = q.jobs[1:]
		q.mu.Unlock()
		q.statsMu.Lock()
		q.size--
		late := time.Since(j.at) > q.MaxWait
		if late {
			q.dropped++
		}
		q.statsMu.Unlock()
		if !late {
			j.f()
		}
	}
}
