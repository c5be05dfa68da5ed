// Package commitlogfixed is commitlog with raft's reader: LastCommitted
// loads the last committed entry by index under one read lock, as
// seaweedfs/raft v1.2.4's commitInfo does (log.go:298, :304).
//
// Silent by design: between Propose's append (log.go:17) and its commit
// (log.go:24), each under the lock on its own, LastCommitted reads the
// old commit and the new entries, and loads the element at commit-1,
// below the length before the append: the entry it loads before the
// append, so its result is that of the order with the reader first (an
// index at or past the old length would have failed the bounds check
// there). The asv replays; nothing may be reported (static/depend's
// `appendedPrefix`; main's build before it reported log.go:17 asv,
// inconsistent snapshot; seaweedfs/raft's log.go:542 asv was this).
package commitlogfixed
