package selectstuckfixed

import "sync"

// First returns the first answer of fetchers, asked concurrently.
func First(fetchers []func() string) string {
	res := make(chan string)
	done := make(chan struct{})
	defer close(done)
	for _, f := range fetchers {
		go func() {
			v := f()
			select {
			case res <- v:
			case <-done:
			}
		}()
	}
	return <-res
}

var (
	events    = make(chan string)
	quit      = make(chan struct{})
	watchOnce sync.Once
	seen      []string
	seenMu    sync.Mutex
)

func watch() {
	for {
		select {
		case e := <-events:
			seenMu.Lock()
			seen = append(seen, e)
			seenMu.Unlock()
		case <-quit:
			return
		}
	}
}

// Notify has the watcher, a daemon, see e.
func Notify(e string) {
	watchOnce.Do(func() { go watch() })
	events <- e
}

// Seen returns how many events the watcher saw.
func Seen() int {
	seenMu.Lock()
	defer seenMu.Unlock()
	return len(seen)
}
