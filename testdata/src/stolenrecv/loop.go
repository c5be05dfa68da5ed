package stolenrecv

import (
	"strings"
	"time"
)

// UpperLoop is Upper with a worker that serves jobs in a loop, answering
// each on the channel it took it from.
func UpperLoop(s string) string {
	ch := make(chan string)
	out := make(chan string)
	go func() {
		for job := range ch { // want "goroutine g[0-9.]+ blocked forever in (chan receive at loop\\.go:14: its sender's value was taken at loop\\.go:20 \\(leak\\)|range over channel at loop\\.go:14: nothing live can send on or close its channel \\(leak, observed in the recorded run\\)); reproduced"
			ch <- strings.ToUpper(job)
		}
	}()
	go func() {
		time.Sleep(time.Millisecond)
		v := <-ch
		out <- v
	}()
	ch <- s
	return <-out
}
