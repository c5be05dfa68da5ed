package shutdownclosefixed

import "errors"

// ErrClosed is returned by a Shutdown after the first.
var ErrClosed = errors.New("shutdownclosefixed: hub already shut down")

// Hub runs until it is shut down.
type Hub struct{ done chan struct{} }

// New returns a running hub.
func New() *Hub { return &Hub{done: make(chan struct{})} }

// Shutdown stops the hub; further calls return ErrClosed.
func (h *Hub) Shutdown() (err error) {
	defer func() {
		if recover() != nil {
			err = ErrClosed
		}
	}()
	close(h.done)
	return nil
}
