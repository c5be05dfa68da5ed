package record

import (
	"io"
	"os"

	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// traceStats reads the trace at path one event at a time — a recorded
// trace can be larger than memory — and returns its event count, goroutine
// count, shared locations (as SharedLocations) and truncation reason.
func traceStats(path string) (events, goroutines, shared int, truncated string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, 0, "", err
	}
	defer f.Close()
	d, err := trace.NewDecoderOptions(f, path, trace.ReadOptions{Lenient: true})
	if err != nil {
		return 0, 0, 0, "", err
	}
	sh := newSharedCounter()
	for {
		e, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, 0, "", err
		}
		events++
		sh.add(e)
	}
	return events, len(d.Tables().Goroutines), sh.count(), d.Truncated(), nil
}

// sharedCounter is SharedLocations, one event at a time.
type sharedCounter struct{ m map[int32]*sharedAcc }

type sharedAcc struct {
	g      int32
	multi  bool
	writes bool
}

func newSharedCounter() *sharedCounter { return &sharedCounter{m: map[int32]*sharedAcc{}} }

func (s *sharedCounter) add(e trace.Event) {
	if !e.Op.IsAccess() || e.Op.IsAtomic() {
		return
	}
	a := s.m[e.Obj]
	if a == nil {
		a = &sharedAcc{g: e.G}
		s.m[e.Obj] = a
	}
	if a.g != e.G {
		a.multi = true
	}
	if e.Op.Writes() {
		a.writes = true
	}
}

func (s *sharedCounter) count() int {
	n := 0
	for _, a := range s.m {
		if a.multi && a.writes {
			n++
		}
	}
	return n
}
