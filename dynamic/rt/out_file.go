//go:build !linux && !darwin

package rt

import (
	"bufio"
	"os"
)

// fileOut is the fallback where memory mapping is not used: a buffered
// file, flushed when the trace is finished (Finish, Exit, Truncate). A
// process that dies otherwise loses the unflushed tail.
type fileOut struct {
	f *os.File
	*bufio.Writer
}

func openOut(path string) (output, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &fileOut{f, bufio.NewWriterSize(f, 1<<20)}, nil
}

func (o *fileOut) close() error {
	err := o.Flush()
	if e := o.f.Close(); err == nil {
		err = e
	}
	return err
}
