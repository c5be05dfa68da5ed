package depwrite

import "sync"

// Bus delivers each event to its handlers.
type Bus struct{ handlers []func(string) }

// Subscribe adds a handler.
func (b *Bus) Subscribe(h func(string)) { b.handlers = append(b.handlers, h) }

// Publish runs every handler on ev, each in a goroutine of its own, and
// waits for them.
func (b *Bus) Publish(ev string) {
	var wg sync.WaitGroup
	for _, h := range b.handlers {
		wg.Add(1)
		go func() { // want "data race on lg\\.warnings"
			defer wg.Done()
			h(ev)
		}()
	}
	wg.Wait()
}
