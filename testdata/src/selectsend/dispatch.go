package selectsend

// Dispatcher hands jobs to workers, the fast lane first.
type Dispatcher struct {
	fast, slow chan int
	sent       int // jobs handed out
}

// New returns a dispatcher with unbuffered lanes.
func New() *Dispatcher { return &Dispatcher{fast: make(chan int), slow: make(chan int)} }

// Dispatch hands job j to whichever lane takes it and counts it.
func (d *Dispatcher) Dispatch(j int) {
	select {
	case d.fast <- j:
	case d.slow <- j:
	}
	d.sent++ // want "data race on Dispatcher\\.sent" "atomicity violation on Dispatcher\\.sent"
}

// Sent returns the number of jobs handed out.
func (d *Dispatcher) Sent() int { return d.sent }
