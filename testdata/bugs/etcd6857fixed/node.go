// Package etcd6857fixed is etcd6857 with the upstream fix of
// https://github.com/etcd-io/etcd/pull/6857: Status selects on n.done and
// returns an empty status once the node has stopped.
package etcd6857fixed

// Status is the raft node's status.
type Status struct{ ID uint64 }

type node struct {
	id     uint64
	status chan chan Status
	stop   chan struct{}
	done   chan struct{}
}

func newNode(id uint64) *node {
	return &node{id: id, status: make(chan chan Status), stop: make(chan struct{}), done: make(chan struct{})}
}

func (n *node) run() {
	for {
		select {
		case c := <-n.status:
			c <- Status{ID: n.id}
		case <-n.stop:
			close(n.done)
			return
		}
	}
}

// Status returns the node's status.
func (n *node) Status() Status {
	c := make(chan Status)
	select {
	case n.status <- c:
		return <-c
	case <-n.done:
		return Status{}
	}
}

// Stop stops the node.
func (n *node) Stop() {
	select {
	case n.stop <- struct{}{}:
	case <-n.done:
		return
	}
	<-n.done
}
