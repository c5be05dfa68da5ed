package stolenrecvfixed

import (
	"strings"
	"time"
)

// Upper hands s to a worker goroutine, which answers on a channel of
// its own; a collector goroutine passes the answer on.
func Upper(s string) string {
	ch := make(chan string)
	out, ans := make(chan string), make(chan string)
	go func() {
		job := <-ch
		ans <- strings.ToUpper(job)
	}()
	go func() {
		time.Sleep(time.Millisecond)
		v := <-ans
		out <- v
	}()
	ch <- s
	return <-out
}
