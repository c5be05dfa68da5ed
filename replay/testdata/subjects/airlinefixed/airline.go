package airlinefixed

import "sync"

// Flight sells seats until it is full.
type Flight struct {
	mu        sync.Mutex
	capacity  int
	sold      int
	stopSales bool
}

// NewFlight returns a flight with capacity seats.
func NewFlight(capacity int) *Flight { return &Flight{capacity: capacity} }

// Sell sells one ticket if sales are open and reports whether it did.
func (f *Flight) Sell() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopSales {
		return false
	}
	f.sold++
	if f.sold >= f.capacity {
		f.stopSales = true
	}
	return true
}

// Sold returns the number of seats sold.
func (f *Flight) Sold() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sold
}
