package namedreturn

import "time"

// Shop quotes prices and audits every unit price it quotes.
type Shop struct {
	price int
	audit chan int
}

// New returns a shop selling at price.
func New(price int) *Shop { return &Shop{price: price, audit: make(chan int, 10)} }

// Quote returns the unit price and the total for n items; orders of ten
// or more get one off the unit price.
func (s *Shop) Quote(n int) (unit, total int) {
	unit = s.price
	go func() { s.audit <- unit }() // want "data race on Shop\\.Quote\\.unit"
	total = unit * n
	time.Sleep(10 * time.Millisecond) // the audit usually has its price by then
	if n < 10 {
		return unit, total
	}
	return unit - 1, total - n
}
