package shrinkbusyfixed

import "sync"

// Pool runs tasks on workers; its recycler shrinks it to the sizes asked
// for with Resize.
type Pool struct {
	mu      sync.Mutex
	workers []*worker
	resize  chan int
	quit    chan struct{}
	done    chan struct{}
}

type worker struct {
	tasks chan func()
	stop  chan struct{}
}

// New returns a pool of n workers.
func New(n int) *Pool {
	p := &Pool{resize: make(chan int), quit: make(chan struct{}), done: make(chan struct{})}
	for i := 0; i < n; i++ {
		w := &worker{tasks: make(chan func()), stop: make(chan struct{})}
		p.workers = append(p.workers, w)
		go w.run()
	}
	go p.recycle()
	return p
}

// run runs the worker's tasks until it is stopped.
func (w *worker) run() {
	for {
		select {
		case <-w.stop:
			return
		case task := <-w.tasks:
			task()
		}
	}
}

// recycle shrinks the pool to each size asked for, until Close.
func (p *Pool) recycle() {
	defer close(p.done)
	for {
		select {
		case n := <-p.resize:
			p.shrink(n)
		case <-p.quit:
			return
		}
	}
}

// shrink stops the workers past n. It takes them out of the pool under
// the lock and stops them after releasing it: a worker busy in a task
// takes its stop only when the task ends, and the task may wait for a
// caller of Workers.
func (p *Pool) shrink(n int) {
	p.mu.Lock()
	stop := append([]*worker(nil), p.workers[n:]...)
	p.workers = p.workers[:n]
	p.mu.Unlock()
	for _, w := range stop {
		w.stop <- struct{}{}
	}
}

// Submit hands task to the pool's last worker.
func (p *Pool) Submit(task func()) {
	p.mu.Lock()
	w := p.workers[len(p.workers)-1]
	p.mu.Unlock()
	w.tasks <- task
}

// Resize asks the recycler to shrink the pool to n workers.
func (p *Pool) Resize(n int) {
	p.resize <- n
}

// Workers returns the number of workers.
func (p *Pool) Workers() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.workers)
}

// Close stops the recycler and the workers.
func (p *Pool) Close() {
	close(p.quit)
	<-p.done
	p.shrink(0)
}
