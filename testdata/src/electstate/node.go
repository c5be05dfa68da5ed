package electstate

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
	n.state = s // want "atomicity violation on Node\\.state"
}

// Run elects the node, alone in its cluster.
func (n *Node) Run() { n.elect() }

// elect stands and wins at once: the candidate state is a placeholder
// it overwrites without looking.
func (n *Node) elect() {
	n.setState("candidate")
	n.setState("leader")
}
