// Package serving5865fixed is serving5865 with the upstream fix of
// https://github.com/knative/serving/pull/5865: run closes a channel of its
// own (done) when it returns, nothing closes destsCh, and an update stops
// waiting to send once the watcher is done.
package serving5865fixed

import "sync"

// revisionWatcher applies one revision's endpoints.
type revisionWatcher struct {
	rev     string
	destsCh chan []string
	stopCh  chan struct{}
	done    chan struct{} // closed by run when it returns

	mu    sync.Mutex
	dests []string
}

func (rw *revisionWatcher) run() {
	defer close(rw.done)
	for {
		select {
		case <-rw.stopCh:
			return
		case dests := <-rw.destsCh:
			rw.mu.Lock()
			rw.dests = dests
			rw.mu.Unlock()
		}
	}
}

// Dests returns the endpoints the watcher applied last.
func (rw *revisionWatcher) Dests() []string {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return rw.dests
}

type revisionBackendsManager struct {
	revisionWatchersMux sync.RWMutex
	revisionWatchers    map[string]*revisionWatcher
}

func newRevisionBackendsManager() *revisionBackendsManager {
	return &revisionBackendsManager{revisionWatchers: map[string]*revisionWatcher{}}
}

func (rbm *revisionBackendsManager) getOrCreateRevisionWatcher(rev string) *revisionWatcher {
	rbm.revisionWatchersMux.Lock()
	defer rbm.revisionWatchersMux.Unlock()
	if rw, ok := rbm.revisionWatchers[rev]; ok {
		return rw
	}
	rw := &revisionWatcher{rev: rev, destsCh: make(chan []string), stopCh: make(chan struct{}), done: make(chan struct{})}
	rbm.revisionWatchers[rev] = rw
	go rw.run()
	return rw
}

// endpointsUpdated hands a revision's new endpoints to its watcher.
func (rbm *revisionBackendsManager) endpointsUpdated(rev string, dests []string) {
	rw := rbm.getOrCreateRevisionWatcher(rev)
	select {
	case rw.destsCh <- dests:
	case <-rw.done: // the revision was deleted
	}
}

// revisionDeleted stops the revision's watcher.
func (rbm *revisionBackendsManager) revisionDeleted(rev string) {
	rbm.revisionWatchersMux.Lock()
	rw, ok := rbm.revisionWatchers[rev]
	delete(rbm.revisionWatchers, rev)
	rbm.revisionWatchersMux.Unlock()
	if ok {
		close(rw.stopCh)
	}
}
