package shop

import "sync"

// Shop sells one kind of goods.
type Shop struct {
	mu    sync.Mutex
	stock int
	sold  int
}

// New returns a shop with the given stock.
func New(stock int) *Shop { return &Shop{stock: stock} }

// Buy sells n items; it reports false when there are not enough.
func (s *Shop) Buy(n int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stock < n { // want "data race on Shop\\.stock" "atomicity violation on "
		return false
	}
	s.stock -= n // want "data race on "
	s.sold += n
	return true
}

// Deliver adds n items to the stock.
func (s *Shop) Deliver(n int) {
	s.stock += n // want "data race on " "atomicity violation on Shop\\.stock"
}

// Stock returns the number of items in stock.
func (s *Shop) Stock() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stock
}

// Sold returns the number of items sold.
func (s *Shop) Sold() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sold
}
