package closelog

// Logger collects lines in a goroutine of its own.
type Logger struct {
	lines chan string
	done  chan struct{}
	out   []string
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

// Log hands s to the logger.
func (l *Logger) Log(s string) {
	l.lines <- s // want "data race on chan_string: this send and another goroutine's close \\(logger.go:32\\) can run back to back; reproduced, panic: send on closed channel"
}

// Close logs a last line, stops the logger and returns what it logged.
func (l *Logger) Close() []string {
	l.lines <- "closed"
	close(l.lines)
	<-l.done
	return l.out
}
