package predict

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// WindowOptions configure RunStream.
type WindowOptions struct {
	// Size is the number of trace events analyzed at once (0: 1<<20, about
	// 250 MB of engine memory). A trace of at most Size events is analyzed
	// whole, as by Run.
	Size int
	// Overlap is the number of events consecutive windows share (0:
	// Size/4). An anomaly whose events lie within Overlap events of each
	// other is inside some window; one spread over more than Overlap
	// events may be missed (the limit of windowed analysis).
	Overlap int
}

func (w *WindowOptions) defaults() {
	if w.Size <= 0 {
		w.Size = 1 << 20
	}
	if w.Overlap <= 0 || w.Overlap >= w.Size {
		w.Overlap = w.Size / 4
	}
}

// StreamResult is the outcome of RunStream. Event indices in Anomalies and
// their schedules are global: indices into the whole trace.
type StreamResult struct {
	Anomalies []Anomaly
	Warnings  []string
	Stats     Stats
	Tables    trace.Tables // the trace's names
	Truncated string       // the trace's truncation reason, if any
	Windows   int          // windows analyzed (1: the trace was analyzed whole)
	// Cut is empty when every window was searched to the end; otherwise it
	// says where the deadline stopped the analysis.
	Cut string
}

// RunStream predicts the anomalies of the trace dec yields, holding at most
// one window of events (plus a small preamble) in memory at a time.
//
// Each window after the first starts with a preamble that recreates the
// state the events before it left: the locks each goroutine holds, the
// units it is inside, the channel sends not yet received, the WaitGroup
// counters and the Onces done — copies of the events that made that state,
// in trace order. Every other happens-before edge into the window comes from
// an event before it, which the schedule's prefix (the trace up to the
// window, in trace order) has already run. A window's schedule is kept only
// if it runs the whole preamble first, in order; it then maps to a schedule
// of the whole trace: the events before the window in trace order, then the
// window's schedule. Anomalies already found in an earlier window (same
// pattern.Key) are not proposed again.
//
// opt.Confirm sees global indices; opt.Deadline and opt.Context bound the
// whole run.
func RunStream(dec trace.Decoder, pats []*pattern.Pattern, opt Options, wopt WindowOptions) (*StreamResult, error) {
	wopt.defaults()
	out := &StreamResult{}
	st := newStreamState()
	found := map[string]bool{}
	var buf []trace.Event // events [w0, w0+len(buf))
	w0 := 0
	eof := false
	for !eof {
		for len(buf) < wopt.Size {
			e, err := dec.Next()
			if err == io.EOF {
				eof = true
				break
			}
			if err != nil {
				return nil, err
			}
			if e.Flags&trace.FlagBlocked != 0 {
				continue // no event of the run (trace.Trace.Blocked)
			}
			buf = append(buf, e)
		}
		if len(buf) == 0 {
			break
		}
		if out.Windows > 0 && opt.stop() {
			out.Cut = fmt.Sprintf("time ran out after %d windows: events from %d on not analyzed", out.Windows, w0+1)
			break
		}
		tabs := *dec.Tables()
		if err := out.window(st, buf, w0, eof, tabs, pats, opt, found); err != nil {
			return nil, err
		}
		out.Windows++
		if out.Cut != "" || eof {
			break
		}
		// Advance by Size-Overlap events: fold them into the state.
		step := len(buf) - wopt.Overlap
		for i := 0; i < step; i++ {
			st.advance(int32(w0+i), buf[i])
		}
		buf = append(buf[:0], buf[step:]...)
		w0 += step
	}
	if len(buf) == 0 && out.Windows == 0 {
		return nil, fmt.Errorf("empty trace: no events to analyze")
	}
	out.Tables = *dec.Tables()
	out.Truncated = dec.Truncated()
	out.Stats.Events = w0 + len(buf)
	out.Stats.Goroutines = len(out.Tables.Goroutines)
	return out, nil
}

// window analyzes events buf (global indices from w0) after the preamble
// of st.
func (out *StreamResult) window(st *streamState, buf []trace.Event, w0 int, last bool, tabs trace.Tables, pats []*pattern.Pattern, opt Options, found map[string]bool) error {
	pre, orig := st.preamble()
	np := int32(len(pre))
	tr := &trace.Trace{Tables: tabs, Events: append(pre, buf...)}
	global := func(i int32) int32 {
		if i < np {
			return orig[i]
		}
		return int32(w0) + i - np
	}
	wopt := opt
	wopt.Confirm = func(a Anomaly) bool {
		if found[a.Key] {
			return true // reported by an earlier window
		}
		if a.Schedule.Prefix < np {
			return false // moves an event from before the window
		}
		g := a
		g.Events = make([]int32, len(a.Events))
		for i, e := range a.Events {
			if e < np {
				return false // a preamble copy stands for an event before the window
			}
			g.Events[i] = global(e)
		}
		g.Schedule = schedule.Schedule{Prefix: int32(w0) + a.Schedule.Prefix - np, Tail: make([]int32, len(a.Schedule.Tail))}
		for i, e := range a.Schedule.Tail {
			g.Schedule.Tail[i] = global(e)
		}
		if opt.Confirm != nil && !opt.Confirm(g) {
			return false
		}
		found[a.Key] = true
		out.Anomalies = append(out.Anomalies, g)
		return true
	}
	res, err := Run(tr, pats, wopt)
	if err != nil {
		return fmt.Errorf("window at event %d: %w", w0+1, err)
	}
	for _, w := range res.Warnings {
		if !last && strings.Contains(w, " ends holding ") {
			continue // the window, not the goroutine, ended there
		}
		if out.Windows > 0 {
			w = fmt.Sprintf("window at event %d: %s", w0+1, w)
		}
		if !slices.Contains(out.Warnings, w) && len(out.Warnings) < 100 {
			out.Warnings = append(out.Warnings, w)
		}
	}
	s := res.Stats
	out.Stats.Build += s.Build
	out.Stats.Search += s.Search
	out.Stats.Schedule += s.Schedule
	out.Stats.Schedules += s.Schedules
	out.Stats.Candidates += s.Candidates
	out.Stats.Unobserved += s.Unobserved
	out.Stats.KeysApart += s.KeysApart
	out.Stats.Folded += s.Folded
	out.Stats.Work += s.Work
	out.Stats.Infeasible += s.Infeasible
	if res.Cut != "" {
		out.Cut = fmt.Sprintf("window %d (events %d to %d): %s", out.Windows+1, w0+1, w0+len(buf), res.Cut)
	}
	return nil
}

// streamState is what the events before a window leave behind that the
// window's analysis needs; see RunStream.
type streamState struct {
	held    map[int32][]indexed // goroutine → lock events still held, in order
	units   map[int32][]indexed // goroutine → region-begin events still open
	pending map[int32][]indexed // channel → sends not yet received, in order
	closed  map[int32]indexed   // channel → its close
	wg      map[int32]int64     // WaitGroup → counter
	wgAdd   map[int32]indexed   // WaitGroup → its latest positive Add
	once    map[int32]indexed   // Once → its first event
}

type indexed struct {
	i int32
	e trace.Event
}

// maxPending bounds the unreceived sends kept per channel; more can only
// come from an inconsistent trace.
const maxPending = 1 << 12

func newStreamState() *streamState {
	return &streamState{held: map[int32][]indexed{}, units: map[int32][]indexed{}, pending: map[int32][]indexed{},
		closed: map[int32]indexed{}, wg: map[int32]int64{}, wgAdd: map[int32]indexed{}, once: map[int32]indexed{}}
}

// popLast removes the last element of s matching keep, if any.
func popLast(s []indexed, match func(trace.Event) bool) []indexed {
	for k := len(s) - 1; k >= 0; k-- {
		if match(s[k].e) {
			return append(s[:k], s[k+1:]...)
		}
	}
	return s
}

// advance folds event e (global index i) into the state.
func (st *streamState) advance(i int32, e trace.Event) {
	x := indexed{i, e}
	switch e.Op {
	case trace.Lock, trace.RLock:
		st.held[e.G] = append(st.held[e.G], x)
	case trace.Unlock, trace.RUnlock:
		acq := trace.Lock
		if e.Op == trace.RUnlock {
			acq = trace.RLock
		}
		st.held[e.G] = popLast(st.held[e.G], func(h trace.Event) bool { return h.Op == acq && h.Obj == e.Obj })
	case trace.RegionBegin:
		st.units[e.G] = append(st.units[e.G], x)
	case trace.RegionEnd:
		if u := st.units[e.G]; len(u) > 0 {
			st.units[e.G] = u[:len(u)-1]
		}
	case trace.Send:
		if e.Flags&trace.FlagClosed != 0 {
			break // panicked on the closed channel: delivered nothing
		}
		p := st.pending[e.Obj]
		if len(p) >= maxPending {
			p = p[1:]
		}
		st.pending[e.Obj] = append(p, x)
	case trace.Recv:
		if e.Flags&trace.FlagClosed == 0 {
			if p := st.pending[e.Obj]; len(p) > 0 {
				st.pending[e.Obj] = p[1:]
			}
		}
	case trace.Close:
		st.closed[e.Obj] = x
	case trace.WGAdd, trace.WGDone:
		d := int64(-1)
		if e.Op == trace.WGAdd {
			d = e.Arg
			if d > 0 {
				st.wgAdd[e.Obj] = x
			}
		}
		st.wg[e.Obj] += d
	case trace.OnceDo:
		if _, ok := st.once[e.Obj]; !ok {
			st.once[e.Obj] = x
		}
	}
}

// preamble returns copies of the events that recreate the state, in trace
// order, with their global indices.
func (st *streamState) preamble() ([]trace.Event, []int32) {
	var xs []indexed
	for _, m := range []map[int32][]indexed{st.held, st.units, st.pending} {
		for _, s := range m {
			xs = append(xs, s...)
		}
	}
	for _, x := range st.closed {
		xs = append(xs, x)
	}
	for _, x := range st.once {
		xs = append(xs, x)
	}
	for wg, n := range st.wg {
		if x, ok := st.wgAdd[wg]; ok && n > 0 {
			x.e.Arg = n // one Add of the net count, by the latest adder
			xs = append(xs, x)
		}
	}
	slices.SortFunc(xs, func(a, b indexed) int { return int(a.i - b.i) })
	evs := make([]trace.Event, len(xs))
	orig := make([]int32, len(xs))
	for k, x := range xs {
		evs[k], orig[k] = x.e, x.i
	}
	return evs, orig
}
