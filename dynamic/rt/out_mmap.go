//go:build linux || darwin

package rt

import (
	"errors"
	"os"
	"syscall"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// mmapOut writes the trace into a shared memory mapping of the file, so that
// every byte written is in the page cache at once and survives a panic,
// os.Exit or SIGKILL of the process (though not a crash of the machine).
//
// The file is extended ahead of the data in chunks (preallocated where the
// file system allows, so that a full disk makes the extension fail instead
// of a later store into the mapping raise SIGBUS); what lies beyond the data
// reads as zeros. Each Write stores its first byte last: a reader therefore
// sees, at any instant, complete records followed by a zero byte where the
// next record header will go, which the lenient trace decoder takes for the
// end of the data (a zero header byte is never written by the encoder).
// close trims the file to its length.
type mmapOut struct {
	f     *os.File
	mem   []byte // the current mapping
	base  int64  // file offset of mem[0]
	pos   int64  // file offset of the next byte
	size  int64  // file size
	chunk int64
	err   error
}

// mmapChunk is the file growth step (a variable for tests).
var mmapChunk int64 = 32 << 20

// mmapFirst is the length of the first mapping (a variable for tests).
var mmapFirst int64 = 8 << 20

func openOut(path string) (output, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	// The header goes through write(2) first, so that even a process
	// killed before its first event leaves a file recognized as a (cut)
	// binary trace; the encoder rewrites the same bytes.
	hdr := append([]byte(trace.BinaryMagic), trace.BinaryVersion)
	if _, err := f.Write(hdr); err != nil {
		f.Close()
		return nil, err
	}
	o := &mmapOut{f: f, size: int64(len(hdr)), chunk: mmapChunk}
	if err := o.remap(0, 1); err != nil {
		f.Close()
		return nil, err
	}
	return o, nil
}

// remap maps the file region starting at the page holding off and covering
// at least n bytes from off, extending the file as needed.
func (o *mmapOut) remap(off int64, n int) error {
	if o.mem != nil {
		if err := syscall.Munmap(o.mem); err != nil {
			return err
		}
		o.mem = nil
	}
	page := int64(os.Getpagesize())
	base := off &^ (page - 1)
	length := o.chunk
	// The first mapping covers only mmapFirst bytes, advised random
	// (below); a trace longer than that goes on in chunks as before.
	first := base == 0
	if first {
		length = min(length, mmapFirst)
	}
	if need := off - base + int64(n); need > length {
		length = (need + page - 1) &^ (page - 1)
	}
	if end := base + length; end > o.size {
		// Grow to a whole number of chunks.
		newSize := (end + o.chunk - 1) / o.chunk * o.chunk
		if err := extend(o.f, o.size, newSize); err != nil {
			return err
		}
		o.size = newSize
	}
	mem, err := syscall.Mmap(int(o.f.Fd()), base, int(length), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return err
	}
	if first {
		// The pages are only written, each once, in order: without the
		// advice, a store's page fault reads around it as far as the
		// disk's readahead (8 MB on a virtio disk), zero-filling the not
		// yet written extents, which the close's truncation then drops.
		// A trace of 50 kB took 2-4 ms of CPU per file so, 0.2 ms with
		// it; most traces (a replay's, a small test's) are that small.
		// Page by page, 4 MB cost what reading around did, and a 30 MB
		// trace 41 ms instead of 23: past mmapFirst (the readahead's
		// size here), faults read around again.
		adviseRandom(mem)
	}
	o.mem, o.base = mem, base
	return nil
}

var errOutClosed = errors.New("rt: trace output closed")

func (o *mmapOut) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if o.mem == nil {
		return 0, errOutClosed
	}
	if o.pos < o.base || o.pos+int64(len(p)) > o.base+int64(len(o.mem)) {
		if err := o.remap(o.pos, len(p)); err != nil {
			o.err = err
			return 0, err
		}
	}
	i := o.pos - o.base
	copy(o.mem[i+1:], p[1:])
	o.mem[i] = p[0] // last: publishes the records
	o.pos += int64(len(p))
	return len(p), nil
}

func (o *mmapOut) close() error {
	var err error
	if o.mem != nil {
		err = syscall.Munmap(o.mem)
		o.mem = nil
	}
	if e := o.f.Truncate(o.pos); err == nil {
		err = e
	}
	if e := o.f.Close(); err == nil {
		err = e
	}
	if err == nil {
		err = o.err
	}
	return err
}
