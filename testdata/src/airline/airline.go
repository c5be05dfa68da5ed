package airline

// Flight sells seats until it is full.
type Flight struct {
	capacity  int
	sold      int
	stopSales bool
}

// NewFlight returns a flight with capacity seats.
func NewFlight(capacity int) *Flight { return &Flight{capacity: capacity} }

// Sell sells one ticket if sales are open and reports whether it did.
func (f *Flight) Sell() bool {
	if f.stopSales { // want "data race on Flight\\.stopSales" "atomic-set-serializability violation on "
		return false
	}
	f.sold++ // want "data race on " "atomicity violation on "
	if f.sold >= f.capacity {
		f.stopSales = true
	}
	return true
}

// Sold returns the number of seats sold.
func (f *Flight) Sold() int { return f.sold }
