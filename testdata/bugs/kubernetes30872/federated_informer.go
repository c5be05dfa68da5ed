// Package kubernetes30872 reduces kubernetes/kubernetes#30872
// (https://github.com/kubernetes/kubernetes/pull/30872, fix deadlock
// possibility in federated informer).
//
// The federated informer's cluster informer runs a controller whose
// processLoop pops the DeltaFIFO: Pop holds the FIFO's lock while the
// handler runs, and the handler (a cluster was added) calls addCluster,
// which takes the federated informer's lock. ClustersSynced, called by the
// namespace controller's reconcile, holds the federated informer's lock
// and asks the cluster informer's controller HasSynced, which takes the
// FIFO's lock. A cluster added while a reconcile checks the sync: AB-BA,
// deadlock.
//
// Upstream fix: ClustersSynced takes no lock (clusterInformer is set once,
// in the constructor), so at most one lock is taken at a time.
package kubernetes30872

import (
	"errors"
	"sync"
	"time"
)

var errFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// DeltaFIFO is the informer's queue of cluster names.
type DeltaFIFO struct {
	lock      sync.RWMutex
	cond      sync.Cond
	items     []string
	populated bool
	closed    bool
}

func newDeltaFIFO() *DeltaFIFO {
	f := &DeltaFIFO{}
	f.cond.L = &f.lock
	return f
}

func (f *DeltaFIFO) Add(name string) {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	f.items = append(f.items, name)
	f.cond.Broadcast()
}

func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.populated && len(f.items) == 0
}

// Pop waits for an item and processes it under the queue's lock.
func (f *DeltaFIFO) Pop(process func(string)) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	for len(f.items) == 0 {
		if f.closed {
			return errFIFOClosed
		}
		f.cond.Wait()
	}
	name := f.items[0]
	f.items = f.items[1:]
	process(name)
	return nil
}

func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// Controller drains the queue into the handler.
type Controller struct {
	queue   *DeltaFIFO
	process func(string)
}

func (c *Controller) Run(stopCh <-chan struct{}) {
	go func() {
		<-stopCh
		c.queue.Close()
	}()
	for c.processLoop() == nil {
	}
}

func (c *Controller) processLoop() error { return c.queue.Pop(c.process) }

func (c *Controller) HasSynced() bool { return c.queue.HasSynced() }

type informer struct {
	controller *Controller
	stopChan   chan struct{}
}

type federatedInformerImpl struct {
	sync.Mutex
	clusterInformer informer
	clusters        map[string]bool
}

func newFederatedInformer(fifo *DeltaFIFO) *federatedInformerImpl {
	f := &federatedInformerImpl{clusters: map[string]bool{}}
	f.clusterInformer.controller = &Controller{queue: fifo, process: func(name string) {
		time.Sleep(time.Millisecond) // the cluster's client is built
		f.addCluster(name)
	}}
	return f
}

func (f *federatedInformerImpl) addCluster(name string) {
	f.Lock()
	defer f.Unlock()
	f.clusters[name] = true
}

// ClustersSynced says whether the cluster informer has synced.
func (f *federatedInformerImpl) ClustersSynced() bool {
	f.Lock()
	defer f.Unlock()
	return f.clusterInformer.controller.HasSynced()
}

func (f *federatedInformerImpl) Start() {
	f.Lock()
	defer f.Unlock()
	f.clusterInformer.stopChan = make(chan struct{})
	go f.clusterInformer.controller.Run(f.clusterInformer.stopChan)
}

func (f *federatedInformerImpl) Stop() {
	f.Lock()
	defer f.Unlock()
	close(f.clusterInformer.stopChan)
}

func (f *federatedInformerImpl) clusterCount() int {
	f.Lock()
	defer f.Unlock()
	return len(f.clusters)
}
