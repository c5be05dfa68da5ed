// Package closejoinearly is closejoin gone wrong: each goroutine's
// channel is closed, or received from, too early to order its write
// before the spawner's read.
package closejoinearly

// Late: a deferred write registered before the close runs after it.
func Late() int {
	n := 0
	done := make(chan struct{})
	go func() {
		defer func() { n = 1 }()
		defer close(done)
	}()
	<-done
	return n // want `^candidate race RW: closejoinearly.go:15:9 closejoinearly.go:11:18$`
}

// Early: the read comes before the receive on one path.
func Early(fast bool) int {
	m := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		m = 2
	}()
	if fast {
		return m // want `^candidate race RW: closejoinearly.go:27:10 closejoinearly.go:24:3$`
	}
	<-done
	return m
}

// Twice: the channel is closed by whoever calls the closure first.
func Twice() int {
	k := 0
	done := make(chan struct{})
	f := func() {
		defer close(done)
		k = 3 // want `^candidate race WW: closejoinearly.go:39:3 closejoinearly.go:39:3$`
	}
	go f()
	f()
	<-done
	return k // want `^candidate race RW: closejoinearly.go:44:9 closejoinearly.go:39:3$`
}
