package buggyprg

import (
	"sync"
	"time"
)

// Report collects the partial results of the workers.
type Report struct {
	parts []int // one slot per worker
	n     int   // number of filled slots
	total int
}

// NewReport returns a report with room for n parts.
func NewReport(n int) *Report {
	return &Report{parts: make([]int, n)}
}

// Add files one partial result.
func (r *Report) Add(part int) {
	r.parts[r.n] = part // want "data race on Report\\.n" "atomicity violation on "
	r.n++               // want "data race on "
	r.total += part     // want "data race on "
}

// Parts returns the filed partial results.
func (r *Report) Parts() []int { return r.parts[:r.n] }

// Total returns the sum of the filed partial results.
func (r *Report) Total() int { return r.total }

func sumSquares(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x * x
	}
	return s
}

// Run computes the sum of squares of all chunks, one worker per chunk.
// Worker i starts i*ramp after the first one.
func Run(chunks [][]int, ramp time.Duration) *Report {
	r := NewReport(len(chunks))
	var wg sync.WaitGroup
	for i, c := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * ramp)
			r.Add(sumSquares(c))
		}()
	}
	wg.Wait()
	return r
}
