// Package etcd6857 reduces etcd-io/etcd#6857
// (https://github.com/etcd-io/etcd/pull/6857, raft: do not block
// Status() on a stopped node).
//
// node.Status sends a reply channel on n.status, which node.run serves.
// Stop makes run close n.done and return. A Status call that comes after
// run has returned blocks on its send for ever: nothing receives from
// n.status any more.
//
// Upstream fix: Status selects on n.done too, and returns an empty status
// once the node has stopped.
package etcd6857

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
	n.status <- c
	return <-c
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
