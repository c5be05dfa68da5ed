package selectstuck

// First returns the first answer of fetchers, asked concurrently.
func First(fetchers []func() string) string {
	res := make(chan string)
	done := make(chan struct{})
	for _, f := range fetchers {
		go func() {
			v := f()
			select {
			case res <- v: // want "goroutine g[0-9.]+ blocked forever in select at first\\.go:11: nothing live can complete any of its cases \\(leak, observed in the recorded run\\); reproduced"
			case <-done:
			}
		}()
	}
	return <-res
}
