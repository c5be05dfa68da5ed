package stolenrecvfixed

import (
	"strings"
	"time"
)

// UpperLoop is Upper with a worker that serves jobs in a loop, answering
// each on a channel of its own.
func UpperLoop(s string) string {
	ch := make(chan string)
	defer close(ch)
	out, ans := make(chan string), make(chan string)
	go func() {
		for job := range ch {
			ans <- strings.ToUpper(job)
		}
	}()
	go func() {
		time.Sleep(time.Millisecond)
		v := <-ans
		out <- v
	}()
	ch <- s
	return <-out
}
