// Package gsyncmap uses every recorded sync.Map method, on two keys, and
// OnceValue.
package gsyncmap

import "sync"

// Ops runs the map's methods in a goroutine and returns what it saw.
func Ops() (int, int) {
	var m sync.Map
	done := make(chan bool)
	go func() {
		m.Store("a", 1)
		m.LoadOrStore("a", 2) // loads
		m.LoadOrStore("b", 3) // stores
		m.Swap("b", 4)
		m.CompareAndSwap("b", 5, 6) // fails: a load
		m.CompareAndSwap("b", 4, 7)
		done <- true
	}()
	<-done
	m.Delete("a") // one key left: the order of Range is random
	n := 0
	m.Range(func(k, v any) bool {
		n++
		return true
	})
	v, _ := m.Load("b")
	m.LoadAndDelete("a")
	m.CompareAndDelete("b", 7)
	m.Delete("b")
	return n, v.(int)
}

var config = 0

// Config is computed once; the goroutine that did not compute it reads
// config after the once.
var get = sync.OnceValue(func() int {
	config = 42
	return config
})

// Once calls get from two goroutines.
func Once() int {
	done := make(chan int)
	go func() { done <- get() }()
	a := <-done
	return a + get()
}
