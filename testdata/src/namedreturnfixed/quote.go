package namedreturnfixed

import "time"

// Shop quotes prices and audits every unit price it quotes.
type Shop struct {
	price int
	audit chan int
}

// New returns a shop selling at price.
func New(price int) *Shop { return &Shop{price: price, audit: make(chan int, 10)} }

// Quote returns the unit price and the total for n items; orders of ten
// or more get ten off the total.
func (s *Shop) Quote(n int) (unit, total int) {
	unit = s.price
	go func() { s.audit <- unit }()
	total = unit * n
	time.Sleep(10 * time.Millisecond)
	if n < 10 {
		return unit, total
	}
	return unit, total - 10
}
