package earlywakefixed

import (
	"context"
	"sync"
	"time"
)

type job struct {
	due   time.Time
	tag   string
	ranAt time.Time
	ran   chan struct{}
}

type queue struct {
	mu   sync.Mutex
	jobs []*job
}

func (q *queue) Size() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs)
}

func (q *queue) Head() (*job, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.jobs) == 0 {
		return nil, false
	}
	return q.jobs[0], true
}

func (q *queue) Remove() *job {
	q.mu.Lock()
	defer q.mu.Unlock()
	j := q.jobs[0]
	q.jobs = q.jobs[1:]
	return j
}

// Retag relabels the head job under the queue's mutex: the queue is never
// seen without it.
func (q *queue) Retag(tag string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.jobs[0].tag = tag
}

func (q *queue) Push(j *job) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.jobs = append(q.jobs, j)
}

type Sched struct {
	outer sync.Mutex
	q     queue
	kick  chan struct{}
}

func New() *Sched { return &Sched{kick: make(chan struct{}, 1)} }

const forever = time.Duration(1<<63 - 1)

func (s *Sched) Loop(ctx context.Context) {
	t := time.NewTimer(forever)
	for {
		d := forever
		if s.q.Size() > 0 {
			if j, ok := s.q.Head(); ok {
				d = time.Until(j.due)
			} else {
				d = 0
			}
		}
		t.Reset(d)
		select {
		case <-t.C:
			s.fire()
		case <-s.kick:
			t.Stop()
		case <-ctx.Done():
			return
		}
	}
}

func (s *Sched) fire() {
	s.outer.Lock()
	defer s.outer.Unlock()
	if s.q.Size() == 0 {
		return
	}
	j := s.q.Remove()
	j.ranAt = time.Now()
	close(j.ran)
}

func (s *Sched) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Add queues a job due after the given time and wakes the loop.
func (s *Sched) Add(after time.Duration) *job {
	j := &job{due: time.Now().Add(after), ran: make(chan struct{})}
	s.outer.Lock()
	s.q.Push(j)
	s.outer.Unlock()
	s.wake()
	return j
}

// Retag relabels the head job; its due time stays.
func (s *Sched) Retag(tag string) {
	s.outer.Lock()
	s.q.Retag(tag)
	s.outer.Unlock()
	s.wake()
}
