// Package kubernetes25331 reduces kubernetes/kubernetes#25331
// (https://github.com/kubernetes/kubernetes/pull/25331, etcd3/watcher:
// fix goroutine leak if ctx is canceled).
//
// watchChan.run waits for an error from the etcd watch (errChan) or for
// the context's cancel. On an error it cancels the context and sends the
// error's event on the unbuffered resultChan. The reflector's
// watchHandler may give up (its stop channel closes) and call Stop
// without receiving from ResultChan: if that happens after run took the
// error, run blocks on its send for ever, and the cancel in Stop does not
// unblock it.
//
// Upstream fix: run's send selects on ctx.Done() too ("user has given up
// all results"), and the cancel comes after the send.
package kubernetes25331

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
		wc.cancel()
		wc.resultChan <- Event{Err: err}
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
