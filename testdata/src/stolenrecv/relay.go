package stolenrecv

import (
	"strings"
	"time"
)

// Upper hands s to a worker goroutine, which answers on the channel it
// took the job from; a collector goroutine passes the answer on.
func Upper(s string) string {
	ch := make(chan string)
	out := make(chan string)
	go func() {
		job := <-ch // want "goroutine g[0-9.]+ blocked forever in chan receive at relay\\.go:14: (its sender's value was taken at relay\\.go:19 \\(leak\\)|nothing live can send on or close its channel \\(leak, observed in the recorded run\\)); reproduced"
		ch <- strings.ToUpper(job)
	}()
	go func() {
		time.Sleep(time.Millisecond)
		v := <-ch
		out <- v
	}()
	ch <- s
	return <-out
}
