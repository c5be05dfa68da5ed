// Package istio16224fixed is istio16224 with the upstream fix of
// https://github.com/istio/istio/pull/16224: the test's handler releases
// the lock before it sends on done.
package istio16224fixed

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
