package latelog

import (
	"sync"
	"testing"
)

// Step is one step of a scenario: Do does its work and returns a result.
type Step struct {
	Name string
	Do   func() string
}

// Runner runs steps and keeps their results.
type Runner struct {
	mu      sync.Mutex
	results map[string]string
	bg      sync.WaitGroup
}

// Run runs each step in a subtest of t, its work in the background.
func (r *Runner) Run(t *testing.T, steps []Step) {
	for _, s := range steps {
		r.bg.Add(1)
		t.Run(s.Name, func(t *testing.T) { // want "data race on the test's T"
			go func() {
				defer r.bg.Done()
				res := s.Do()
				r.record(s.Name, res)
				t.Logf("%s: %s", s.Name, res)
			}()
		})
	}
}

func (r *Runner) record(name, res string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.results == nil {
		r.results = map[string]string{}
	}
	r.results[name] = res
}

// Wait waits for the steps' work and returns the results.
func (r *Runner) Wait() map[string]string {
	r.bg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.results
}
