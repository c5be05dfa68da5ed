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
	if f.stopSales { // want "data race on Flight\\.stopSales" "atomic-set-serializability violation on Flight\\.stopSales, Flight\\.sold"
		return false
	}
	f.sold++ // want "data race on Flight\\.sold" "atomicity violation on Flight\\.sold" "atomic-set-serializability violation on Flight\\.sold, Flight\\.stopSales"
	if f.sold >= f.capacity {
		f.stopSales = true
	}
	return true
}

// Sold returns the number of seats sold.
func (f *Flight) Sold() int { return f.sold }
