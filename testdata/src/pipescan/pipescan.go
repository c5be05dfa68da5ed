package pipescan

import (
	"bufio"
	"io"
	"sync"
)

// Log keeps the lines written to it.
type Log struct {
	mu    sync.Mutex
	lines []string
	done  chan struct{}
}

// Writer returns a pipe whose lines a goroutine adds to l; Done is closed
// once the pipe is closed and every line is in.
func (l *Log) Writer() *io.PipeWriter {
	r, w := io.Pipe()
	l.done = make(chan struct{})
	go l.scan(r, l.done)
	return w
}

// Done returns the channel closed once Writer's pipe is drained.
func (l *Log) Done() <-chan struct{} { return l.done }

func (l *Log) scan(r *io.PipeReader, done chan struct{}) {
	defer close(done)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l.add(sc.Text())
	}
}

// Add adds line to the log.
func (l *Log) Add(line string) { l.add(line) }

// Len returns the number of lines.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

// add appends line: the count, then the store at that index, each under
// the lock, but not together.
func (l *Log) add(line string) {
	l.mu.Lock()
	n := len(l.lines) // want "atomicity violation on "
	l.mu.Unlock()
	l.put(n, line)
}

func (l *Log) put(i int, line string) {
	l.mu.Lock()
	if i < len(l.lines) {
		l.lines[i] = line
	} else {
		l.lines = append(l.lines, line)
	}
	l.mu.Unlock()
}
