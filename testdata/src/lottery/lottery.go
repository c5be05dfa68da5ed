package lottery

import (
	"hash/fnv"
	"sync"
)

// Lottery sells a fixed number of tickets and then draws a winner.
type Lottery struct {
	mu      sync.Mutex
	max     int
	sold    int
	tickets []string
	winners []string
}

// New returns a lottery of max tickets.
func New(max int) *Lottery { return &Lottery{max: max} }

// Buy sells a ticket to name; the last ticket sold starts the draw.
func (l *Lottery) Buy(name string) {
	l.mu.Lock()
	l.tickets = append(l.tickets, name) // want "atomicity violation on "
	l.sold++
	l.mu.Unlock()

	if l.Sold() == l.max {
		l.draw()
	}
}

// Sold returns the number of tickets sold.
func (l *Lottery) Sold() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sold
}

func (l *Lottery) draw() {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := fnv.New32a()
	for _, t := range l.tickets {
		h.Write([]byte(t))
	}
	l.winners = append(l.winners, l.tickets[int(h.Sum32())%len(l.tickets)])
}

// Winners returns the winners drawn.
func (l *Lottery) Winners() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.winners...)
}
