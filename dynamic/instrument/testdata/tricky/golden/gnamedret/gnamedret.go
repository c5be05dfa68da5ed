// Package gnamedret returns a named result that a goroutine captured (so
// it lives on the heap) as itself: `return a, 10` writes b only (the
// compiler drops the self-assignment of a), while `return b, a` writes
// both.
package gnamedret

// Same returns a as itself.
func Same() (a int, b int) {
	a = 1
	done := make(chan bool)
	go func() {
		_ = a + b
		done <- true
	}()
	<-done
	return a, 10
}

// Swapped returns the results the other way round.
func Swapped() (a int, b int) {
	a, b = 1, 2
	done := make(chan bool)
	go func() {
		_ = a + b
		done <- true
	}()
	<-done
	return b, a
}
