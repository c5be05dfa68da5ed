package sharedbuffixed

import (
	"bytes"
	"strings"
	"sync"
)

// Journal collects lines.
type Journal struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Add appends a line.
func (j *Journal) Add(line string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf.WriteString(line + "\n")
}

// Lines returns the lines added so far.
func (j *Journal) Lines() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return strings.Fields(j.buf.String())
}
