package predict

import (
	"io"
	"os"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// MaxEvents is the number of trace events a prediction that is replayed
// reads (ReadPrefix): with the PTG at about 100 to 300 bytes per event,
// it keeps the engine within a few hundred megabytes. A schedule is
// replayed from the start of the test, so the events of its anomaly must be
// within the part of the trace read; RunStream analyzes longer traces
// window by window for prediction alone.
//
// At 2^21, ants's tests that run 100,000 tasks on a pool of 1,000
// goroutines are cut there, and each of their traces takes 700 MB to
// predict from (and 15 s, and each replay of their 2-million-step
// schedules 20 s); 2^20 halves both.
const MaxEvents = 1 << 20

// MaxGoroutines is the number of goroutines a prediction's trace may have
// (ReadPrefix): the PTG keeps a vector clock of every goroutine per
// goroutine, 4 bytes times the square of their number, and a snapshot of a
// goroutine's clock wherever it synchronized (a row of 4 bytes per 32
// goroutines, plus the 128-byte chunks that changed; ptg/clocks.go). A
// test that starts a goroutine per task (ants's TestNoPool, 100,000 of
// them) took 31 GiB; at 4096, ants's TestPurgePool's snapshots took 440
// MB. Its trace is cut where it would name one more.
const MaxGoroutines = 1024

// ReadPrefix reads the first max events (all if max <= 0) of the trace
// file at path, leniently, and reports whether it left events out. It
// also stops before the event that would bring the goroutines its events
// name (as actor, or forked or joined) past MaxGoroutines; the goroutine
// table then holds only those, renumbered in order of first mention.
func ReadPrefix(path string, max int) (tr *trace.Trace, cut bool, err error) {
	return readPrefix(path, max, MaxGoroutines, 0, 0)
}

// ReadPrefixSized is ReadPrefix for a trace whose caller already counted
// its events (record.Test.Events, from the recording's own pass over the
// file): the event slice is made that large (at most max) at once. For a
// trace of a million events, growing it by appends copied it over and
// over, half of the reading's CPU. A wrong count costs only memory or
// appends; what is read is the same. objects, the object names it
// defines (record.Test.Objects), sizes the object table the same way
// (trace.ReadOptions.Objects): TestNoRaceTinyAlloc of Go's race testdata
// names half a million objects in its million events.
func ReadPrefixSized(path string, max, events, objects int) (tr *trace.Trace, cut bool, err error) {
	return readPrefix(path, max, MaxGoroutines, events, objects)
}

func readPrefix(path string, max, maxG, events, objects int) (tr *trace.Trace, cut bool, err error) {
	if max > 0 && events > max {
		events = max
	}
	// Each object is defined before the first event naming it: a prefix
	// of events events defines at most about as many (a bound on the
	// memory a wrong count costs).
	objects = min(objects, events)
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	d, err := trace.NewDecoderOptions(f, path, trace.ReadOptions{Lenient: true, Objects: objects})
	if err != nil {
		return nil, false, err
	}
	tr = new(trace.Trace)
	if events > 0 {
		tr.Events = make([]trace.Event, 0, events)
	}
	gs := map[int32]int32{} // goroutine index in the file → in tr
	var order []int32       // file indices, in order of first mention
	mention := func(g int32) (int32, bool) {
		if k, ok := gs[g]; ok {
			return k, true
		}
		if len(order) >= maxG {
			return 0, false
		}
		k := int32(len(order))
		gs[g] = k
		order = append(order, g)
		return k, true
	}
	for {
		e, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
		if max > 0 && len(tr.Events) >= max {
			cut = true
			break
		}
		if e.Flags&trace.FlagBlocked != 0 {
			// Blocked at the test's end (check's observed leaks): its
			// goroutine has events of its own, so it is mentioned, unless
			// the prefix was cut before them.
			if g, ok := gs[e.G]; ok {
				e.G = g
				tr.Blocked = append(tr.Blocked, e)
			}
			continue
		}
		mark := len(order)
		g, ok := mention(e.G)
		var obj int32
		if ok && e.Op.Object() == trace.ObjGoroutine && e.Obj >= 0 {
			obj, ok = mention(e.Obj)
		}
		if !ok {
			for _, x := range order[mark:] {
				delete(gs, x)
			}
			order = order[:mark]
			cut = true
			break
		}
		e.G = g
		if e.Op.Object() == trace.ObjGoroutine && e.Obj >= 0 {
			e.Obj = obj
		}
		tr.Events = append(tr.Events, e)
	}
	tr.Tables = *d.Tables()
	all := tr.Goroutines
	tr.Goroutines = make([]string, len(order))
	for k, g := range order {
		tr.Goroutines[k] = all[g]
	}
	tr.Truncated = d.Truncated()
	return tr, cut, nil
}
