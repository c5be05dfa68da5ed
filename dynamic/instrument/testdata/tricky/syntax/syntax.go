// Package syntax is a zoo of constructs the instrumenter must keep intact.
package syntax

import (
	"errors"
	"fmt"
	"sort"
	. "strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	global   int
	globalS  = []int{1, 2, 3}
	globalM  = map[string]int{"a": 1}
	registry = struct {
		sync.Mutex
		names []string
	}{}
	hits        atomic.Int64
	raw         int32
	once        sync.Once
	initialized = compute(3)
)

func compute(n int) int { global += n; return global * 2 }

// Shadow declares locals that shadow package names.
func Shadow() string {
	sync := "not a package"
	fmt := func(s string) string { return s + "!" }
	return fmt(ToUpper(sync))
}

// Register uses the promoted Lock of an embedded mutex.
func Register(name string) int {
	registry.Lock()
	defer registry.Unlock()
	registry.names = append(registry.names, name)
	return len(registry.names)
}

// Account embeds a mutex by value in a struct literal.
type Account struct {
	sync.Mutex
	Balance int
	Log     []string
}

// Deposit locks through the embedded mutex.
func (a *Account) Deposit(n int) {
	a.Lock()
	a.Balance += n
	a.Log = append(a.Log, fmt.Sprint(n))
	a.Unlock()
}

// TryDeposit uses TryLock.
func (a *Account) TryDeposit(n int) bool {
	if !a.TryLock() {
		return false
	}
	defer a.Unlock()
	a.Balance += n
	return true
}

// Labeled uses labeled loops, break, continue and goto.
func Labeled(grid [][]int) (found int, steps int) {
outer:
	for i := range grid {
		for j := 0; j < len(grid[i]); j++ {
			steps++
			if grid[i][j] < 0 {
				continue outer
			}
			if grid[i][j] == 42 {
				found = i*10 + j
				break outer
			}
		}
	}
	n := 0
again:
	n++
	if n < 3 {
		goto again
	}
	steps += n
	return
}

// SelectLoop exercises every select case form.
func SelectLoop(in <-chan int, out chan<- string, quit chan struct{}) (sum int, err error) {
	var v2 int
	var ok2 bool
	vals := []int{0}
	m := map[string]int{}
	ticker := time.NewTimer(time.Hour)
	defer ticker.Stop()
loop:
	for {
		select {
		case v := <-in:
			sum += v
		case v, ok := <-in:
			if !ok {
				break loop
			}
			sum += v
		case v2, ok2 = <-in:
			if !ok2 {
				in = nil
				continue
			}
			sum += v2
		case vals[0] = <-in:
			sum += vals[0]
		case m["k"] = <-in:
			sum += m["k"]
		case out <- fmt.Sprint(sum):
		case <-quit:
			break loop
		case <-ticker.C:
			return 0, errors.New("timeout")
		}
	}
	select {
	case <-quit:
	default:
	}
	return sum, nil
}

// Closures captures variables in goroutines.
func Closures(n int) int {
	total := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	add := func(k int) {
		mu.Lock()
		total += k
		mu.Unlock()
	}
	for i := range n {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			add(k)
		}(i)
	}
	wg.Wait()
	counter := 0
	inc := func() int { counter++; return counter }
	inc()
	inc()
	return total + counter
}

// Shape has methods for method values and expressions.
type Shape struct{ W, H int }

// Area is a value method.
func (s Shape) Area() int { return s.W * s.H }

// Scale is a pointer method.
func (s *Shape) Scale(k int) { s.W *= k; s.H *= k }

// Methods uses method values and expressions.
func Methods() (int, int) {
	s := Shape{2, 3}
	area := s.Area
	scale := s.Scale
	s.W = 10
	scale(2)
	f := Shape.Area
	g := (*Shape).Scale
	g(&s, 1)
	return area(), f(s)
}

// Recover turns a panic into an error.
func Recover(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	f()
	return nil
}

// Channels hands values over buffered and unbuffered channels.
func Channels() []int {
	unbuf := make(chan int)
	buf := make(chan int, 3)
	done := make(chan struct{})
	go func() {
		for v := range unbuf {
			buf <- v * 2
		}
		close(buf)
		close(done)
	}()
	for i := 1; i <= 3; i++ {
		unbuf <- i
	}
	close(unbuf)
	<-done
	var out []int
	for v := range buf {
		out = append(out, v)
	}
	return out
}

// Atomics uses functions and types of sync/atomic.
func Atomics() (int64, int32) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			hits.Add(1)
			atomic.AddInt32(&raw, 2)
		})
	}
	wg.Wait()
	atomic.CompareAndSwapInt32(&raw, 8, 9)
	var b atomic.Bool
	b.Store(true)
	var p atomic.Pointer[Shape]
	p.Store(&Shape{1, 1})
	if !b.Load() || p.Load().W != 1 {
		return -1, -1
	}
	return hits.Load(), atomic.LoadInt32(&raw)
}

// Cond waits for a condition.
func Cond() int {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := 0
	for i := 0; i < 3; i++ {
		go func() {
			mu.Lock()
			ready++
			c.Broadcast()
			mu.Unlock()
		}()
	}
	mu.Lock()
	for ready < 3 {
		c.Wait()
	}
	c.Signal()
	mu.Unlock()
	return ready
}

// Once runs init once.
func Once() int {
	n := 0
	for range 3 {
		once.Do(func() { n++ })
	}
	do := once.Do
	do(func() { n += 10 })
	return n
}

type pt struct{ x, y int }

// Assign covers tuple assignment, op=, swaps, maps and fields.
func Assign() string {
	a, b := 1, 2
	a, b = b, a
	p := &pt{1, 2}
	p.x, p.y = p.y, p.x
	q := []int{0, 1, 2}
	i := 0
	i, q[i] = 1, 9
	globalS[0], globalS[1] = globalS[1], globalS[0]
	globalM["b"] += 2
	globalM["a"]++
	delete(globalM, "zz")
	v, ok := globalM["a"]
	var arr [3]int
	arr[1] = 5
	p.x <<= 2
	p.y += len(q)
	global, p.x = pair()
	parts := Fields(" a b ")
	sort.Strings(parts)
	var e error = &myErr{}
	var sink []error
	sink = append(sink, e)
	return fmt.Sprint(a, b, *p, q, i, globalS, globalM["a"], globalM["b"], v, ok, arr, len(parts), len(sink))
}

func pair() (int, int) { return 7, 8 }

type myErr struct{}

func (*myErr) Error() string { return "myErr" }

// Exit is a function value of os.Exit's type.
var Exit func(int)

// ShortCircuit reads the right operand only when it is evaluated.
func ShortCircuit(p *pt) bool {
	return p != nil && p.x > 0 || p == nil
}

// Sends converts values on send.
func Sends() string {
	ch := make(chan error, 2)
	ch <- &myErr{}
	ch <- nil
	e1, e2 := <-ch, <-ch
	var ro <-chan error = ch
	close(ch)
	_, ok := <-ro
	return fmt.Sprint(e1, e2, ok)
}

// RangeSkip ranges over a channel with a continue from inside a switch, a
// labeled continue from an inner loop and a break: each receive of the
// loop is gated before its head performs it (rt.RangeGate), at the
// continues too.
func RangeSkip(ch <-chan int) (sum int) {
outer:
	for v := range ch {
		switch {
		case v%2 == 0:
			continue
		case v > 100:
			break outer
		}
		for k := 0; k < v; k++ {
			if k == 3 {
				continue outer
			}
			sum++
		}
	}
	return sum
}

// Redeclare redeclares, in one :=, a plain local (fields), a new one
// (last) and one a closure captures (err), as go-cron's parser does: the
// rewrite assigns the first, declares the second and records the third.
func Redeclare(spec string) ([]string, error) {
	fields, err := Fields(spec), error(nil)
	fields, last, err := splitLast(fields)
	check := func() bool { return err == nil }
	if !check() {
		return nil, err
	}
	return append(fields, "+"+last), err
}

func splitLast(f []string) ([]string, string, error) {
	if len(f) == 0 {
		return nil, "", fmt.Errorf("empty")
	}
	return f[:len(f)-1], f[len(f)-1], nil
}
