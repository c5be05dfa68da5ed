// Package serving5865 reduces knative/serving#5865
// (https://github.com/knative/serving/pull/5865, fix race in activator's
// revisionWatcher; https://github.com/knative/serving/issues/5864).
//
// The activator's revisionBackendsManager sends each revision's new
// endpoints to that revision's watcher on destsCh, and the watcher's run
// closes destsCh when it returns, as the signal that it has finished: the
// receiving side closes the channel its senders still use. An endpoints
// update that fetched the watcher before the revision was deleted sends
// on destsCh; in the test the update is delivered well before the
// deletion, but in the bad schedule the deletion stops the watcher, run
// closes destsCh, and the update's send panics: send on closed channel.
//
// Upstream fix: a done channel tells the manager that run has finished,
// nothing closes destsCh (the kernel's update also selects on done).
package serving5865

import "sync"

// revisionWatcher applies one revision's endpoints.
type revisionWatcher struct {
	rev     string
	destsCh chan []string // closed by run when it returns
	stopCh  chan struct{}

	mu    sync.Mutex
	dests []string
}

func (rw *revisionWatcher) run() {
	defer close(rw.destsCh)
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
	rw := &revisionWatcher{rev: rev, destsCh: make(chan []string), stopCh: make(chan struct{})}
	rbm.revisionWatchers[rev] = rw
	go rw.run()
	return rw
}

// endpointsUpdated hands a revision's new endpoints to its watcher.
func (rbm *revisionBackendsManager) endpointsUpdated(rev string, dests []string) {
	rw := rbm.getOrCreateRevisionWatcher(rev)
	rw.destsCh <- dests
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
