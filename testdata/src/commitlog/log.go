package commitlog

import "sync"

// Log is a single node's replicated log: Propose appends an entry and
// then commits it, each in a critical section of its own, as
// seaweedfs/raft's leader does when it has no peers.
type Log struct {
	mu      sync.RWMutex
	entries []int
	commit  int // entries[:commit] are committed
}

func (l *Log) appendEntry(v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, v) // want "atomic-set-serializability violation on Log\\.entries, Log\\.commit"
}

func (l *Log) setCommit(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n > l.commit { // another Propose may have committed past n
		l.commit = n
	}
}

func (l *Log) length() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.entries)
}

// Propose appends v and commits it: a single node needs no quorum.
func (l *Log) Propose(v int) {
	l.appendEntry(v)
	l.setCommit(l.length())
}

// Pending is how many entries wait for their commit: none, on a single
// node, once Propose has returned.
func (l *Log) Pending() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.entries) - l.commit
}
