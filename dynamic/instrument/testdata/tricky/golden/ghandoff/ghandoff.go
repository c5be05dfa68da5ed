// Package ghandoff hands values over an unbuffered channel.
package ghandoff

var result int

// Handoff sends 1 and 2 to a consumer that sums them.
func Handoff() int {
	ch := make(chan int)
	done := make(chan struct{})
	go func() {
		for v := range ch {
			result += v
		}
		close(done)
	}()
	ch <- 1
	ch <- 2
	close(ch)
	<-done
	return result
}
