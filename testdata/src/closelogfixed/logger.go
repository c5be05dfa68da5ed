package closelogfixed

import "sync"

// Logger collects lines in a goroutine of its own.
type Logger struct {
	mu     sync.Mutex
	closed bool
	lines  chan string
	done   chan struct{}
	out    []string
}

// New starts a logger.
func New() *Logger {
	l := &Logger{lines: make(chan string), done: make(chan struct{})}
	go l.run()
	return l
}

func (l *Logger) run() {
	for s := range l.lines {
		l.out = append(l.out, s)
	}
	close(l.done)
}

// Log hands s to the logger, unless it is closed.
func (l *Logger) Log(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.lines <- s
	}
}

// Close logs a last line, stops the logger and returns what it logged.
func (l *Logger) Close() []string {
	l.mu.Lock()
	l.lines <- "closed"
	l.closed = true
	close(l.lines)
	l.mu.Unlock()
	<-l.done
	return l.out
}
