package plainleakfixed

// First asks every replica the query, each from its own goroutine, and
// returns the first answer.
func First(query string, replicas ...func(string) string) string {
	ch := make(chan string, len(replicas))
	for _, r := range replicas {
		go func(r func(string) string) {
			ch <- r(query)
		}(r)
	}
	return <-ch
}
