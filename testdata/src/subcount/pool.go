package subcount

import "sync"

// Pool counts its workers under its own lock; a subpool's workers are
// its parent's workers too, counted in both.
type Pool struct {
	mu     sync.Mutex
	n, max int
	queued int
	parent *Pool
}

// New returns a pool of at most max workers, a subpool of parent when
// parent is not nil.
func New(max int, parent *Pool) *Pool { return &Pool{max: max, parent: parent} }

// Submit starts a worker in the subpool if it is below its limit, and
// with it one in the parent if the parent is below its own, else queues
// the job in the parent.
func (p *Pool) Submit() bool {
	if !p.take() {
		return false
	}
	p.parent.takeOrQueue()
	return true
}

func (p *Pool) take() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n >= p.max {
		return false
	}
	p.n++
	return true
}

func (p *Pool) takeOrQueue() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n >= p.max {
		p.queued++
		return
	}
	p.n++
}

// Exit ends a subpool worker, in the subpool and in the parent.
func (p *Pool) Exit() {
	p.leave()
	p.parent.leave()
}

func (p *Pool) leave() {
	p.mu.Lock()
	p.n--
	p.mu.Unlock()
}

// Counts returns the workers and queued jobs.
func (p *Pool) Counts() (n, queued int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n, p.queued // want "atomic-set-serializability violation on Pool\\.n"
}

// Launch adds a worker to the subpool and to the parent, whatever the
// limits.
func (p *Pool) Launch() {
	p.join()
	p.parent.join()
}

func (p *Pool) join() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
}

// Balanced tells whether the subpool's workers are all counted in the
// parent.
func (p *Pool) Balanced() bool {
	s, _ := p.Counts()
	n, _ := p.parent.Counts()
	return s <= n
}
