// Package istio16224 reduces istio/istio#16224
// (https://github.com/istio/istio/pull/16224, fix memory monitor test
// deadlock).
//
// The in-memory config store's monitor runs the registered handlers on
// its own goroutine for each event that Create schedules on the
// unbuffered eventCh. TestEventConsistency's handler takes the test's
// lock and, still holding it, sends on done; the test, after Create,
// takes the same lock to record the new resource version and only then
// receives from done. If the handler takes the lock first, it blocks on
// done with the lock held and the test blocks on the lock. Deadlock.
//
// Upstream fix (in the test): the handler releases the lock before it
// sends on done.
package istio16224

import (
	"strconv"
	"time"
)

// Event is what happened to a config.
type Event int

const (
	EventAdd Event = iota + 1
	EventUpdate
)

// Config is a stored config.
type Config struct {
	Name            string
	ResourceVersion string
}

// Handler is called for each config event.
type Handler func(Config, Event)

type configEvent struct {
	config Config
	event  Event
}

type configstoreMonitor struct {
	handlers []Handler
	eventCh  chan configEvent
}

func newMonitor() *configstoreMonitor {
	return &configstoreMonitor{eventCh: make(chan configEvent)}
}

func (m *configstoreMonitor) Run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case ce := <-m.eventCh:
			m.processConfigEvent(ce)
		}
	}
}

func (m *configstoreMonitor) processConfigEvent(ce configEvent) {
	time.Sleep(20 * time.Millisecond) // the store's work before the handlers run
	for _, f := range m.handlers {
		f(ce.config, ce.event)
	}
}

func (m *configstoreMonitor) AppendEventHandler(h Handler) { m.handlers = append(m.handlers, h) }

func (m *configstoreMonitor) ScheduleProcessEvent(ce configEvent) { m.eventCh <- ce }

type controller struct {
	monitor *configstoreMonitor
	rev     int
}

func (c *controller) RegisterEventHandler(f Handler) { c.monitor.AppendEventHandler(f) }

func (c *controller) Run(stop <-chan struct{}) { c.monitor.Run(stop) }

// Create stores config and returns its resource version.
func (c *controller) Create(config Config) string {
	c.rev++
	config.ResourceVersion = strconv.Itoa(c.rev)
	c.monitor.ScheduleProcessEvent(configEvent{config, EventAdd})
	return config.ResourceVersion
}
