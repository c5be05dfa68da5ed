package plainleakfixed

import "errors"

var errEmpty = errors.New("apply: empty change")

// Apply applies changes in order and calls release once it is done, from
// a goroutine that waits for the end; an empty change returns an error.
func Apply(changes []string, apply func(string), release func()) error {
	done := make(chan struct{})
	go func() {
		<-done
		release()
	}()
	defer close(done)
	for _, c := range changes {
		if c == "" {
			return errEmpty
		}
		apply(c)
	}
	return nil
}
