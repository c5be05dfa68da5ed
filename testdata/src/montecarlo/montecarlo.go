package montecarlo

import "math/rand/v2"

// Task is one simulation: Paths random walks of Steps steps.
type Task struct {
	Seed         uint64
	Paths, Steps int
}

// run returns how many of the task's walks end above their start.
func (t Task) run() int {
	rng := rand.New(rand.NewPCG(t.Seed, 0x9e3779b97f4a7c15))
	ups := 0
	for range t.Paths {
		price := 100.0
		for range t.Steps {
			price *= 1 + 0.02*rng.NormFloat64() + 0.001
		}
		if price > 100 {
			ups++
		}
	}
	return ups
}

// Sim accumulates the results of the tasks.
type Sim struct {
	ups, paths int
}

// Worker runs tasks and adds their results to the totals.
func (s *Sim) Worker(tasks []Task) {
	for _, t := range tasks {
		u := t.run()
		s.ups += u         // want "data race on " "atomicity violation on "
		s.paths += t.Paths // want "data race on "
	}
}

// Result returns the number of walks that ended up and the number of walks.
func (s *Sim) Result() (ups, paths int) { return s.ups, s.paths }

// Sequential runs all tasks in one goroutine.
func Sequential(tasks []Task) (ups, paths int) {
	var s Sim
	s.Worker(tasks)
	return s.Result()
}
