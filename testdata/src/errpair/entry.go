package errpair

import (
	"errors"
	"sync/atomic"
)

// Entry is a cached value and the error of the fetch that made it, each
// in its own atomic, which Get returns together.
type Entry struct {
	val atomic.Value
	err atomic.Value // holds an errHolder, so that nil fits
}

type errHolder struct{ err error }

// Store sets the value and its error.
func (e *Entry) Store(v any, err error) {
	e.val.Store(v) // want "atomic-set-serializability violation on Entry\\.val, Entry\\.err"
	e.err.Store(errHolder{err: err})
}

// Get returns the value and the error stored with it.
func (e *Entry) Get() (any, error) {
	return e.val.Load(), e.loadErr()
}

func (e *Entry) loadErr() error {
	h, _ := e.err.Load().(errHolder)
	return h.err
}

var errFetch = errors.New("fetch failed")

// Refresh fetches a new value, and stores what a failed fetch gave
// with its error.
func (e *Entry) Refresh(fetch func() (any, error)) {
	v, err := fetch()
	e.Store(v, err)
}
