// Package more covers the remaining corners: go statements of every
// shape, labeled selects and channel loops, sync through interfaces and
// method expressions, conversions on assignment.
package more

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
)

// MyBool is a named boolean.
type MyBool bool

// State is shared between goroutines.
type State struct {
	mu    sync.RWMutex
	flag  MyBool
	err   error
	arr   [4]int
	byKey map[string]struct{ n int }
	ch    chan int
	log   []string
}

var shared State

type worker struct{ id int }

func (w worker) run(out chan<- string, tag string, extra ...int) {
	out <- fmt.Sprint(tag, w.id, len(extra))
}

func pair() (string, int) { return "p", 2 }

func two(s string, n int, out chan<- string) { out <- fmt.Sprint(s, n) }

// GoShapes starts goroutines in every shape of go statement.
func GoShapes() []string {
	out := make(chan string, 10)
	w := worker{id: 1}
	go w.run(out, "method", 1, 2)
	xs := []int{1, 2, 3}
	go w.run(out, "variadic", xs...)
	fs := []func(){func() { out <- "indexed" }}
	go fs[0]()
	go two("lit", len(xs), out)
	go func(a, b int) { out <- fmt.Sprint("args", a+b) }(1, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go wg.Done()
	wg.Wait()
	go println()
	var res []string
	for range 5 {
		res = append(res, <-out)
	}
	return res
}

// Labeled uses labels on a select and a channel loop.
func Labeled(ch chan int) int {
	sum := 0
	done := make(chan struct{})
	go func() {
		for i := 1; i <= 5; i++ {
			ch <- i
		}
		close(done)
	}()
sel:
	select {
	case v := <-ch:
		if v == 1 {
			break sel
		}
		sum += 100
	}
loop:
	for v := range ch {
		sum += v
		if v == 4 {
			break loop
		}
	}
	<-ch
	<-done
	return sum
}

// Lockers goes through sync.Locker, method expressions and RLocker.
func Lockers() int {
	var mu sync.Mutex
	var l sync.Locker = &mu
	l.Lock()
	l.Unlock()
	(*sync.Mutex).Lock(&mu)
	(*sync.Mutex).Unlock(&mu)
	shared.mu.RLock()
	ok := shared.mu.TryRLock()
	shared.mu.RUnlock()
	if ok {
		shared.mu.RUnlock()
	}
	rl := shared.mu.RLocker()
	rl.Lock()
	rl.Unlock()
	unlock := shared.mu.Unlock
	shared.mu.Lock()
	unlock()
	return 3
}

// Convert assigns with implicit conversions.
func Convert(a, b int) string {
	shared.flag = a == b
	shared.err = errors.New("e")
	var e *myErr
	shared.err = e
	shared.err = nil
	shared.arr[a] = b
	shared.arr[len(shared.arr)-1]++
	shared.byKey = map[string]struct{ n int }{"k": {1}}
	n := shared.byKey["k"].n
	shared.ch = make(chan int, 1)
	shared.ch <- n
	var ok MyBool
	var v int
	select {
	case v, ok = <-shared.ch:
	}
	shared.log = append(shared.log, fmt.Sprint(v, ok))
	shared.flag, shared.err = !shared.flag, fmt.Errorf("%v", shared.flag)
	return fmt.Sprint(shared.flag, shared.err != nil, shared.arr, n, shared.log)
}

type myErr struct{}

func (*myErr) Error() string { return "" }

// Defers evaluates deferred arguments at defer time.
func Defers() (s string) {
	x := &struct{ n int }{1}
	defer func(v int) { s = fmt.Sprint(s, v) }(x.n)
	x.n = 2
	defer func() { s = fmt.Sprint(s, x.n) }()
	return "r"
}

// Redeclare assigns a captured named result in a short variable
// declaration.
func Redeclare(s string) (n int, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("wrapped: %w", err)
		}
	}()
	n, err = 0, nil
	a, err := strconv.Atoi(s)
	return a, err
}
