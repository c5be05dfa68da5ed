package record

import (
	"io"
	"os"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// traceStats reads the trace at path one event at a time — a recorded
// trace can be larger than memory — and returns its event count, goroutine
// count, shared locations (as SharedLocations) and truncation reason.
func traceStats(path string) (events, goroutines, shared int, truncated string, err error) {
	events, goroutines, _, shared, truncated, err = traceStatsActive(path)
	return
}

// traceStatsActive is traceStats that also counts the active goroutines:
// those with events other than forks and joins (the main goroutine, which
// only forks and joins a test's goroutine, is not one).
func traceStatsActive(path string) (events, goroutines, active, shared int, truncated string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, 0, 0, "", err
	}
	defer f.Close()
	// No object names are needed here: CountObjects keeps the decoder's
	// memory independent of how many objects (allocations) the test named.
	d, err := trace.NewDecoderOptions(f, path, trace.ReadOptions{Lenient: true, CountObjects: true})
	if err != nil {
		return 0, 0, 0, 0, "", err
	}
	sh := newSharedCounter()
	var act []bool
	for {
		e, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, 0, 0, "", err
		}
		events++
		sh.add(e)
		if e.Op != trace.Fork && e.Op != trace.Join && e.G >= 0 {
			if int(e.G) >= len(act) {
				act = append(act, make([]bool, int(e.G)+1-len(act))...)
			}
			if !act[e.G] {
				act[e.G] = true
				active++
			}
		}
	}
	return events, len(d.Tables().Goroutines), active, sh.count(), d.Truncated(), nil
}

// sharedCounter is SharedLocations, one event at a time. It is indexed by
// object: a test that allocates in a loop has millions of objects (one per
// allocation), and a map of pointers cost over 50 bytes each where this
// costs 8.
type sharedCounter struct{ objs []sharedAcc }

type sharedAcc struct {
	g1     int32 // the first goroutine to access the object, plus one; 0: none yet
	multi  bool
	writes bool
}

func newSharedCounter() *sharedCounter { return &sharedCounter{} }

func (s *sharedCounter) add(e trace.Event) {
	if !e.Op.IsAccess() || e.Op.IsAtomic() || e.Obj < 0 {
		return
	}
	if int(e.Obj) >= len(s.objs) {
		s.objs = append(s.objs, make([]sharedAcc, int(e.Obj)+1-len(s.objs))...)
	}
	a := &s.objs[e.Obj]
	if a.g1 == 0 {
		a.g1 = e.G + 1
	} else if a.g1 != e.G+1 {
		a.multi = true
	}
	if e.Op.Writes() {
		a.writes = true
	}
}

func (s *sharedCounter) count() int {
	n := 0
	for _, a := range s.objs {
		if a.multi && a.writes {
			n++
		}
	}
	return n
}
