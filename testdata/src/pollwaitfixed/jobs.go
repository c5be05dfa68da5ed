// Package pollwaitfixed is pollwait with the test's condition computing
// only its result: a job manager's worker releases a job's name and,
// in a second critical section, its worker count; the test polls
// `!tracked && active == 0` under the same lock until both are done.
// Between the worker's two sections the condition reads the name gone
// and the worker still counted and returns false, and the poller polls
// again, as it does for a poll before the worker's first section: the
// reads decide only another poll (static/depend's PollRead, caddyserver/
// certmagic v0.25.6's TestJobManagerCleansUpAfterJobPanic). Nothing
// should be reported.
package pollwaitfixed

import "sync"

// Jobs runs each submitted job on a worker goroutine of its own.
type Jobs struct {
	mu     sync.Mutex
	names  map[string]struct{}
	active int
}

func New() *Jobs { return &Jobs{names: map[string]struct{}{}} }

// Submit starts job under name unless a job of that name is running.
func (j *Jobs) Submit(name string, job func()) {
	j.mu.Lock()
	if _, ok := j.names[name]; ok {
		j.mu.Unlock()
		return
	}
	j.names[name] = struct{}{}
	j.active++
	j.mu.Unlock()
	go j.worker(name, job)
}

func (j *Jobs) worker(name string, job func()) {
	job()
	j.mu.Lock()
	delete(j.names, name)
	j.mu.Unlock()
	j.mu.Lock()
	j.active--
	j.mu.Unlock()
}
