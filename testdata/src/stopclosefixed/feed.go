package stopclosefixed

import "sync"

// Feed applies values in a goroutine of its own until Stop.
type Feed struct {
	updates chan int
	stop    chan struct{}
	done    chan struct{}

	mu   sync.Mutex
	last int
}

// New starts a feed.
func New() *Feed {
	f := &Feed{updates: make(chan int), stop: make(chan struct{}), done: make(chan struct{})}
	go f.run()
	return f
}

func (f *Feed) run() {
	defer close(f.done)
	for {
		select {
		case <-f.stop:
			return
		case v := <-f.updates:
			f.mu.Lock()
			f.last = v
			f.mu.Unlock()
		}
	}
}

// Update hands v to the feed.
func (f *Feed) Update(v int) {
	select {
	case f.updates <- v:
	case <-f.done: // stopped
	}
}

// Stop stops the feed and waits for its goroutine.
func (f *Feed) Stop() {
	close(f.stop)
	<-f.done
}

// Last returns the value applied last.
func (f *Feed) Last() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}
