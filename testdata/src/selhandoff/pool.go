package selhandoff

import "sync"

// Pool runs tasks on one worker and counts the workers a miner made.
type Pool struct {
	mu    sync.Mutex
	room  *sync.Cond
	n     int
	max   int
	stop  chan struct{}
	tasks chan func()
	wg    sync.WaitGroup
}

// New starts the worker and the miner.
func New(max int) *Pool {
	p := &Pool{max: max, stop: make(chan struct{}), tasks: make(chan func())}
	p.room = sync.NewCond(&p.mu)
	p.wg.Add(1)
	go p.miner()
	go p.worker()
	return p
}

func (p *Pool) miner() {
	defer p.wg.Done()
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		select {
		case <-p.stop:
			return
		default:
		}
		if p.n < p.max {
			p.n++
			continue
		}
		p.room.Wait() // want "lost signal: g[0-9.]+ can broadcast Pool\\.room#1 \\(pool\\.go:67\\) before g[0-9.]+ waits on it \\(pool\\.go:40\\), and the Wait then blocks forever; reproduced, the replay deadlocks"
	}
}

func (p *Pool) worker() {
	for {
		select {
		case <-p.stop:
			return
		case t := <-p.tasks:
			t()
		}
	}
}

// Schedule hands t to the worker if it waits, else runs it here.
func (p *Pool) Schedule(t func()) {
	select {
	case p.tasks <- t:
	default:
		t()
	}
}

// Release stops the worker and the miner and waits for the miner.
func (p *Pool) Release() {
	close(p.stop)
	p.room.Broadcast()
	p.wg.Wait()
}
