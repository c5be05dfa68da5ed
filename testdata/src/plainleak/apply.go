package plainleak

import "errors"

var errEmpty = errors.New("apply: empty change")

// Apply applies changes in order and calls release once it is done, from
// a goroutine that waits for the end; an empty change returns an error.
func Apply(changes []string, apply func(string), release func()) error {
	done := make(chan struct{})
	go func() {
		<-done // want "goroutine g[0-9.]+ blocked forever in chan receive at apply\\.go:12: nothing live can send on or close its channel \\(leak, observed in the recorded run\\); reproduced"
		release()
	}()
	for _, c := range changes {
		if c == "" {
			return errEmpty
		}
		apply(c)
	}
	close(done)
	return nil
}
