// Package flat exercises flattening: splicing, units, critical sections,
// program order and recursion.
package flat

import "sync"

type T struct {
	mu   sync.Mutex
	a, b int
}

var g int

func (t *T) get() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.a
}

func (t *T) set(v int) {
	t.mu.Lock()
	t.b = v
	t.mu.Unlock()
}

func Twice(t *T) {
	x := t.get()
	t.set(x)
	for i := range 3 {
		t.a = i
	}
}

func rec(n int) {
	if n > 0 {
		rec(n - 1)
	}
	g = n
}

func Generic[E any](xs []E, x E) {
	xs[0] = x
}

func CallGeneric() {
	Generic([]int{1}, 2)
	rec(3)
}

func (t *T) InLoop() {
	for range 3 {
		t.mu.Lock()
		t.a++
		t.mu.Unlock()
	}
}

func (t *T) AroundLoop() {
	t.mu.Lock()
	for range 3 {
		t.a++
	}
	t.mu.Unlock()
}

var once sync.Once

func Init() { once.Do(func() { g = 1 }) }

func spawn() { go rec(1) }

func Spawner() { spawn() }
