package electstatefixed

import "sync"

// Node is a cluster member's state machine.
type Node struct {
	mu    sync.RWMutex
	state string
}

// NewNode returns a follower.
func NewNode() *Node { return &Node{state: "follower"} }

// State is the node's role.
func (n *Node) State() string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.state
}

func (n *Node) setState(s string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.state = s
}

// Run runs the step of each state it finds until the node leads.
func (n *Node) Run() {
	for st := n.State(); st != "leader"; st = n.State() {
		switch st {
		case "follower":
			n.follow()
		case "candidate":
			n.campaign()
		}
	}
}

func (n *Node) follow() { n.setState("candidate") }

// campaign wins at once, alone in its cluster, while it still stands.
func (n *Node) campaign() {
	for n.State() == "candidate" {
		n.setState("leader")
		return
	}
}
