package plainleak

// First asks every replica the query, each from its own goroutine, and
// returns the first answer.
func First(query string, replicas ...func(string) string) string {
	ch := make(chan string)
	for _, r := range replicas {
		go func(r func(string) string) {
			ch <- r(query) // want "goroutine g[0-9.]+ blocked forever in chan send at first\\.go:9: nothing live can receive from its channel \\(leak, observed in the recorded run\\); reproduced"
		}(r)
	}
	return <-ch
}
