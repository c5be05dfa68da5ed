package rangeleak

import "errors"

var errEmpty = errors.New("store: empty record")

// Store writes recs to sink, in order, from a writer goroutine, and
// returns an error for an empty record.
func Store(recs []string, sink func(string)) error {
	ch := make(chan string)
	done := make(chan struct{})
	go func() {
		for r := range ch { // want "goroutine g[0-9.]+ blocked forever in range over channel at store\\.go:13: nothing live can send on or close its channel \\(leak, observed in the recorded run\\); reproduced"
			sink(r)
		}
		close(done)
	}()
	for _, r := range recs {
		if r == "" {
			return errEmpty
		}
		ch <- r
	}
	close(ch)
	<-done
	return nil
}
