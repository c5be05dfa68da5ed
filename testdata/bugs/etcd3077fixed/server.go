// Package etcd3077fixed is etcd3077 with the upstream fix of
// https://github.com/etcd-io/etcd/pull/3077: the raft node's stopped and
// done channels are made before its goroutine starts.
package etcd3077fixed

import "time"

type raftNode struct {
	stopped chan struct{}
	done    chan struct{}
	ticks   int
}

func (r *raftNode) run() {
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
	s.r.stopped = make(chan struct{})
	s.r.done = make(chan struct{})
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
