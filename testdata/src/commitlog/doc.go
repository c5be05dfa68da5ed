// Package commitlog is a real module's cousin (pecanvet issue 26,
// session 46, branch snap46; seaweedfs/raft v1.2.4's Log, whose leader
// appends a command's entry and commits it, with no peers, in two
// critical sections: appendEntry, log.go:542, and setCommitIndex,
// log.go:370).
//
// Known bug: an atomic-set-serializability violation (asv-9/-10,
// inconsistent snapshot) on Log.entries and Log.commit. Propose appends
// (log.go:17) and then commits (log.go:24), each under the lock on its
// own; a Pending between them reads the new length and the old commit
// (log.go:45) and says 1 entry is pending, which no order of the whole
// calls shows: a single node's Propose commits what it appends. The
// test logs the count and passes: dependence only (the returned
// difference mixes the two reads), which static/depend's
// `appendedPrefix` must not excuse (the reader takes the slice's
// length, which the append changed). Every access holds the lock: go
// test -race reports nothing.
//
// commitlogfixed is silent by design: its reader is raft's commitInfo,
// the last committed entry loaded by index under one read lock; between
// the append and the commit it loads an element below the old length,
// the one it loads before the append (static/depend's `appendedPrefix`;
// seaweedfs/raft's log.go:542 asv of session 45's trial 27 was this).
package commitlog
