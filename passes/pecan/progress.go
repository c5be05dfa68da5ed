package pecan

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// EnvProgress names a file the vet tool appends its check's progress
// lines to (those `pecanvet check` prints on standard error), each
// prefixed with the seconds since the tool's process started and the
// package: go vet gives the tool no standard error worth reading while
// it runs, and a slow module should explain itself (issue 30). For
// measuring the tool, not for users.
const EnvProgress = "PECANVET_PROGRESS"

var procStart = time.Now()

// progressLog opens the progress file, if one is asked for; the
// returned function closes it.
func progressLog(pkg string) (io.Writer, func()) {
	path := os.Getenv(EnvProgress)
	if path == "" {
		return nil, func() {}
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, func() {}
	}
	w := &stampWriter{w: f, pkg: pkg}
	fmt.Fprintf(w, "pecanvet vet: checking (pid %d)\n", os.Getpid())
	return w, func() {
		fmt.Fprintf(w, "pecanvet vet: done\n")
		f.Close()
	}
}

// stampWriter prefixes each whole line with the time since procStart and
// the package, writing each line in one write (O_APPEND: the tool's
// processes for several packages share the file).
type stampWriter struct {
	mu  sync.Mutex
	w   io.Writer
	pkg string
	buf []byte
}

func (s *stampWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := fmt.Sprintf("%7.2fs %s: %s\n", time.Since(procStart).Seconds(), s.pkg, s.buf[:i])
		s.buf = s.buf[i+1:]
		if _, err := io.WriteString(s.w, line); err != nil {
			return len(p), err
		}
	}
}
