package sharedbuf

import (
	"bytes"
	"strings"
)

// Journal collects lines.
type Journal struct {
	buf bytes.Buffer
}

// Add appends a line.
func (j *Journal) Add(line string) {
	// Both workers write the buffer; nothing orders them.
	s := line + "\n"
	j.buf.WriteString(s) // want "data race on Journal\\.buf"
}

// Lines returns the lines added so far.
func (j *Journal) Lines() []string {
	return strings.Fields(j.buf.String())
}
