package errguardfixed

import (
	"errors"
	"sync/atomic"
)

// Entry is a cached value and the error of the fetch that made it, each
// in its own atomic.
type Entry struct {
	val atomic.Value
	err atomic.Value // holds an errHolder, so that nil fits
}

type errHolder struct{ err error }

// Store sets the value and its error.
func (e *Entry) Store(v any, err error) {
	e.val.Store(v)
	e.err.Store(errHolder{err: err})
}

// GetOr returns the value, or def when the fetch that made it failed.
func (e *Entry) GetOr(def any) any {
	if e.loadErr() != nil {
		return def
	}
	return e.val.Load()
}

func (e *Entry) loadErr() error {
	h, _ := e.err.Load().(errHolder)
	return h.err
}

var errFetch = errors.New("fetch failed")

// Refresh fetches a new value; a failed fetch keeps the entry as it is.
func (e *Entry) Refresh(fetch func() (any, error)) {
	v, err := fetch()
	if err != nil {
		return
	}
	e.Store(v, err)
}
