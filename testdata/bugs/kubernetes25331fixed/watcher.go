// Package kubernetes25331fixed is kubernetes25331 with the upstream fix
// of https://github.com/kubernetes/kubernetes/pull/25331: run's send of
// the error's event selects on ctx.Done() too, and run cancels the
// context after it.
package kubernetes25331fixed

import (
	"context"
	"errors"
	"time"
)

// Event is a watch event; an error event carries Err.
type Event struct{ Err error }

var errCompacted = errors.New("required revision has been compacted")

type watchChan struct {
	ctx        context.Context
	cancel     context.CancelFunc
	resultChan chan Event
	errChan    chan error
}

func newWatchChan() *watchChan {
	ctx, cancel := context.WithCancel(context.Background())
	return &watchChan{ctx: ctx, cancel: cancel, resultChan: make(chan Event), errChan: make(chan error, 1)}
}

// startWatching is the etcd watch; it fails after a while.
func (wc *watchChan) startWatching() {
	time.Sleep(2 * time.Millisecond)
	wc.sendError(errCompacted)
}

func (wc *watchChan) sendError(err error) {
	select {
	case wc.errChan <- err:
	case <-wc.ctx.Done():
	}
}

func (wc *watchChan) run() {
	go wc.startWatching()
	select {
	case err := <-wc.errChan:
		select {
		case wc.resultChan <- Event{Err: err}:
		case <-wc.ctx.Done(): // the user has given up all results
		}
		wc.cancel()
	case <-wc.ctx.Done():
	}
}

func (wc *watchChan) Stop()                    { wc.cancel() }
func (wc *watchChan) ResultChan() <-chan Event { return wc.resultChan }

var errStopped = errors.New("reflector stopped")

// watchHandler is the reflector's loop over one watch: it returns the
// watch's error, or errStopped once stopCh closes, and stops the watch.
func watchHandler(w *watchChan, stopCh <-chan struct{}) error {
	defer w.Stop()
	select {
	case <-stopCh:
		return errStopped
	case ev := <-w.ResultChan():
		return ev.Err
	}
}
