// Package pollwait is a job manager whose worker releases a job's name
// and, in a second critical section, its worker count, with a test that
// polls until the name is released and keeps the count its condition
// read alongside: between the worker's two sections the poll succeeds
// with the worker still counted, and the test, using the count it kept,
// fails. The condition's reads decide a store, not only another poll:
// static/depend's PollRead must not excuse them.
package pollwait

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
	delete(j.names, name) // want "atomic-set-serializability violation on map\\[string\\]struct\\{\\}, Jobs\\.active: .*(workers left after the job.s name was released|inconsistent snapshot)"
	j.mu.Unlock()
	j.mu.Lock()
	j.active--
	j.mu.Unlock()
}
