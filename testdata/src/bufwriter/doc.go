// Package bufwriter is a Go version of the ConTest "BufWriter" program
// (atomic-sets paper, Table 1): a buffered writer. Write copies into the
// buffer without locking when the data fits ("fast path"); Flush, called by
// a background flusher goroutine, writes the buffered bytes out and empties
// the buffer under the mutex.
//
// Known bug: data races and an atomicity violation (RWW on Writer.n, the
// fill level; an atomic-set-serializability violation on {Writer.buf,
// Writer.n}). Write reads w.n at bufwriter.go:23, copies into w.buf at
// bufwriter.go:25 and writes w.n at bufwriter.go:26. If a Flush (the read at
// bufwriter.go:49, the write at bufwriter.go:53) runs between Write's read
// and write of n, the bytes already flushed are counted again: they are
// written out twice (TestFlusher fails: "abcabcdef").
//
// One report at bufwriter.go:23 for the atomicity violations: Flush's check
// at bufwriter.go:49 (one critical section), with Write's unlocked write at
// bufwriter.go:26 between it and Flush's write, is the same missing lock on
// the fast path, shown with -v (check's unlockedKeys, since session 39; it
// was a second report at :49 before).
//
// go test -race flags it in a single run.
package bufwriter
