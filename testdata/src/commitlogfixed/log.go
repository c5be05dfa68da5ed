package commitlogfixed

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
	l.entries = append(l.entries, v)
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

// LastCommitted returns the last committed entry and whether there is
// one, as raft's commitInfo does.
func (l *Log) LastCommitted() (int, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.commit == 0 {
		return 0, false
	}
	return l.entries[l.commit-1], true
}
