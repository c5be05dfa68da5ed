// Package etcd3077 reduces etcd-io/etcd#3077
// (https://github.com/etcd-io/etcd/pull/3077, etcdserver: init raft
// internal var early; the data race of
// https://github.com/etcd-io/etcd/issues/3060).
//
// raftNode.run makes its stopped and done channels itself, in the
// goroutine the server starts it in, while the server's run loop, on its
// way out, sends on r.stopped and waits on r.done: the goroutine's writes
// of the two fields race with the server's reads (the race detector saw
// it in TestSyncTrigger). In the test the server runs well after the raft
// goroutine made its channels; in the bad schedule the server reads
// r.stopped before it is made and sends on a nil channel, blocking for
// ever, and Stop waits for ever for the server to end.
//
// Upstream fix: the channels are made before the raft goroutine starts.
package etcd3077

import "time"

type raftNode struct {
	stopped chan struct{}
	done    chan struct{}
	ticks   int
}

func (r *raftNode) run() {
	r.stopped = make(chan struct{})
	r.done = make(chan struct{})
	defer r.stop()
	ticker := time.NewTicker(time.Millisecond)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			r.ticks++
		case <-r.stopped:
			return
		}
	}
}

func (r *raftNode) stop() { close(r.done) }

// EtcdServer runs a raft node.
type EtcdServer struct {
	r    raftNode
	stop chan struct{}
	done chan struct{}
}

func (s *EtcdServer) start() {
	s.stop = make(chan struct{})
	s.done = make(chan struct{})
	go s.run()
}

func (s *EtcdServer) run() {
	go s.r.run()
	defer func() {
		s.r.stopped <- struct{}{}
		<-s.r.done
		close(s.done)
	}()
	<-s.stop
}

// Stop stops the server and waits for it to end.
func (s *EtcdServer) Stop() {
	select {
	case s.stop <- struct{}{}:
	case <-s.done:
		return
	}
	<-s.done
}
