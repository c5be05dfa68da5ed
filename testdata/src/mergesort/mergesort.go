package mergesort

import "sync"

// Budget limits the number of helper goroutines running at once.
type Budget struct {
	mu   sync.Mutex
	free int
}

// NewBudget returns a budget of n helpers.
func NewBudget(n int) *Budget { return &Budget{free: n} }

// Available reports how many helpers may still be started.
func (b *Budget) Available() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.free // want "atomicity violation on "
}

// Take reserves one helper; the caller must have checked Available.
func (b *Budget) Take() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.free == 0 {
		panic("mergesort: helper budget exceeded")
	}
	b.free--
}

// Give returns a helper.
func (b *Budget) Give() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.free++
}

// Sorter sorts ints, in parallel while its budget allows.
type Sorter struct {
	budget *Budget
	minPar int // shorter slices are sorted sequentially
}

// Sort sorts a in increasing order.
func (s *Sorter) Sort(a []int) {
	if len(a) < 2 {
		return
	}
	mid := len(a) / 2
	if len(a) >= s.minPar && s.budget.Available() > 0 {
		s.budget.Take()
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer s.budget.Give()
			s.Sort(a[:mid])
		}()
		s.Sort(a[mid:])
		<-done
	} else {
		s.Sort(a[:mid])
		s.Sort(a[mid:])
	}
	merge(a, mid)
}

// merge merges the sorted halves a[:mid] and a[mid:].
func merge(a []int, mid int) {
	left := append([]int(nil), a[:mid]...)
	i, j, k := 0, mid, 0
	for i < len(left) && j < len(a) {
		if left[i] <= a[j] {
			a[k] = left[i]
			i++
		} else {
			a[k] = a[j]
			j++
		}
		k++
	}
	copy(a[k:], left[i:])
}
