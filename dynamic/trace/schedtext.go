package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
)

// ScheduleText renders the schedules of one trace's predictions without
// writing each to its own file. A schedule runs the trace's first Prefix
// events in recorded order, then a short tail; a test's predictions share
// most of their steps, and writing each schedule's file in full (its
// steps counted, its reads compared and its text formatted from the
// trace's start) was 41% of pecanvet's CPU on ants, for predictions most
// of which are never replayed. ScheduleText writes the trace's steps in
// recorded order once, to one file and only as far as a schedule needs,
// and gives each schedule its header in memory (SchedText): its file is
// the header, then byte ranges of that file, the lines of its runs of
// consecutive events (a step's line depends only on its event). A
// schedule's tail was held as text in memory before: a test's hundreds
// of predictions with tails of thousands of steps held 750 MB of it
// (go-datastructures' btree/immutable), where a tail of 6,000 steps has
// about 14 runs. The occurrence counts and the writes each read saw are
// counted once per trace too.
type ScheduleText struct {
	tr   *Trace
	file string
	n    []int32 // Step.N of each event
	from []int32 // the last write to event i's object before it (-1: none), for reads
	// The writes of each object, in trace order: object o's are
	// ws[wsAt[o]:wsAt[o+1]] (one array, not a slice per object: a trace
	// names up to millions of objects).
	wsAt []int32
	ws   []int32
	f    *os.File
	w    *bufio.Writer
	off  []int64 // off[i]: where event i's line starts in the file (len: lines written + 1)
	line []byte
	err  error
}

// SchedText is one schedule of a ScheduleText: the file it writes is
// Head, then the byte ranges Runs of File.
type SchedText struct {
	Head []byte // header, anomaly and changed lines
	File string // the trace's steps in recorded order
	// Runs are the byte ranges of File, start and end (exclusive) in
	// turn, whose lines are the schedule's steps: its prefix, then each
	// run of consecutive events of its tail.
	Runs []int64
	// TailAt is where the tail's lines start in File: the prefix's
	// run may go on into the tail's first events.
	TailAt  int64
	Steps   int
	Anomaly []Step // the anomaly's steps, in pattern order
}

// Open returns the schedule's file text.
func (s *SchedText) Open() (io.ReadCloser, error) {
	f, err := os.Open(s.File)
	if err != nil {
		return nil, err
	}
	rs := []io.Reader{bytes.NewReader(s.Head)}
	for i := 0; i < len(s.Runs); i += 2 {
		rs = append(rs, io.NewSectionReader(f, s.Runs[i], s.Runs[i+1]-s.Runs[i]))
	}
	return readCloser{io.MultiReader(rs...), f}, nil
}

// Tail returns the lines of the schedule's tail (its steps after the
// prefix), read from File.
func (s *SchedText) Tail() ([]byte, error) {
	f, err := os.Open(s.File)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []byte
	for i := 0; i < len(s.Runs); i += 2 {
		from, to := max(s.Runs[i], s.TailAt), s.Runs[i+1]
		if from >= to {
			continue
		}
		at := len(out)
		out = append(out, make([]byte, to-from)...)
		if _, err := f.ReadAt(out[at:], from); err != nil {
			return nil, fmt.Errorf("%s: steps at %d: %v", s.File, from, err)
		}
	}
	return out, nil
}

// WriteFile writes the schedule's file to path. The prefix is copied
// file to file (copy_file_range where the system has it).
func (s *SchedText) WriteFile(path string) error {
	in, err := os.Open(s.File)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = out.Write(s.Head)
	for i := 0; i < len(s.Runs) && err == nil; i += 2 {
		if _, err = in.Seek(s.Runs[i], io.SeekStart); err != nil {
			break
		}
		var n int64
		want := s.Runs[i+1] - s.Runs[i]
		n, err = io.Copy(out, io.LimitReader(in, want))
		if err == nil && n < want {
			err = fmt.Errorf("%s: %d bytes of steps at %d, want %d", s.File, n, s.Runs[i], want)
		}
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

type readCloser struct {
	io.Reader
	io.Closer
}

// NewScheduleText returns a ScheduleText of tr whose steps go to file,
// created on first use. Close it before reading any SchedText's file.
func NewScheduleText(tr *Trace, file string) *ScheduleText {
	st := &ScheduleText{tr: tr, file: file, off: []int64{0}}
	// Occurrences count along each goroutine's program order; a
	// schedule runs a prefix of it, so counting over the events in
	// trace order gives every schedule's numbers.
	occ := make(map[uint64]int32, 1024)
	st.n = make([]int32, len(tr.Events))
	st.from = make([]int32, len(tr.Events))
	st.wsAt = make([]int32, len(tr.Objects)+2)
	lastW := make([]int32, len(tr.Objects))
	for i := range lastW {
		lastW[i] = -1
	}
	for i := range tr.Events {
		ev := &tr.Events[i]
		k := uint64(uint32(ev.G))<<40 ^ uint64(ev.Op)<<32 ^ uint64(uint32(ev.Site))
		c := occ[k] + 1
		occ[k] = c
		st.n[i] = c
		st.from[i] = -1
		if !ev.Op.IsAccess() || ev.Obj < 0 || int(ev.Obj) >= len(lastW) {
			continue
		}
		if ev.Op.Reads() {
			st.from[i] = lastW[ev.Obj]
		}
		if ev.Op.Writes() {
			lastW[ev.Obj] = int32(i)
			st.wsAt[ev.Obj+2]++
		}
	}
	// Counts to offsets (wsAt[o+1] is where o's writes go while filling,
	// then where they end).
	for o := 2; o < len(st.wsAt); o++ {
		st.wsAt[o] += st.wsAt[o-1]
	}
	st.ws = make([]int32, st.wsAt[len(st.wsAt)-1])
	for i := range tr.Events {
		ev := &tr.Events[i]
		if ev.Op.IsAccess() && ev.Op.Writes() && ev.Obj >= 0 && int(ev.Obj) < len(lastW) {
			st.ws[st.wsAt[ev.Obj+1]] = int32(i)
			st.wsAt[ev.Obj+1]++
		}
	}
	st.wsAt = st.wsAt[:len(tr.Objects)+1]
	return st
}

// step returns event e's step.
func (st *ScheduleText) step(e int32) Step {
	ev := &st.tr.Events[e]
	return Step{G: st.tr.Goroutines[ev.G], Op: ev.Op, Obj: st.tr.ObjName(*ev), Site: st.tr.Site(*ev), N: int(st.n[e]), MapKey: eventKey(*ev)}
}

// appendStep appends event e's line: Step.String and a newline, without
// its allocations (a trace has up to a million of them).
func (st *ScheduleText) appendStep(line []byte, e int32) []byte {
	ev := &st.tr.Events[e]
	line = append(line, st.tr.Goroutines[ev.G]...)
	line = append(line, ' ')
	line = append(line, ev.Op.String()...)
	if obj := st.tr.ObjName(*ev); obj != "" {
		line = append(line, ' ')
		line = append(line, obj...)
	}
	if site := st.tr.Site(*ev); site != "" {
		line = append(line, " @"...)
		line = append(line, site...)
	}
	line = append(line, " n="...)
	line = strconv.AppendInt(line, int64(st.n[e]), 10)
	return append(line, '\n')
}

// grow writes the steps file's lines up to event k (exclusive).
func (st *ScheduleText) grow(k int32) error {
	if st.err != nil {
		return st.err
	}
	if st.f == nil {
		if st.f, st.err = os.Create(st.file); st.err != nil {
			return st.err
		}
		st.w = bufio.NewWriterSize(st.f, 64<<10)
	}
	for e := int32(len(st.off) - 1); e < k; e++ {
		st.line = st.appendStep(st.line[:0], e)
		if _, st.err = st.w.Write(st.line); st.err != nil {
			return st.err
		}
		st.off = append(st.off, st.off[len(st.off)-1]+int64(len(st.line)))
	}
	return nil
}

// Schedule renders the schedule that runs the trace's first prefix
// events in order, then the events tail, with anomaly (events, in
// pattern order) its anomaly: the file WriteSchedule writes for the
// events 0..prefix-1 and tail.
func (st *ScheduleText) Schedule(pattern string, prefix int32, tail, anomaly []int32) (SchedText, error) {
	evs := int32(len(st.tr.Events))
	if prefix < 0 || prefix > evs {
		return SchedText{}, fmt.Errorf("schedule prefix of %d events of %d", prefix, evs)
	}
	tailAt := make(map[int32]int, len(tail)) // event → its step
	for k, e := range tail {
		if e < prefix || e >= evs {
			return SchedText{}, fmt.Errorf("schedule step refers to event %d of %d (after a prefix of %d)", e+1, evs, prefix)
		}
		if _, ok := tailAt[e]; !ok {
			tailAt[e] = int(prefix) + k
		}
	}
	stepOf := func(e int32) (int, bool) {
		if e >= 0 && e < prefix {
			return int(e), true
		}
		i, ok := tailAt[e]
		return i, ok
	}
	s := SchedText{File: st.file, Steps: int(prefix) + len(tail)}
	var head []byte
	head = append(head, ScheduleHeader+"\nanomaly "...)
	head = append(head, pattern...)
	for _, e := range anomaly {
		i, ok := stepOf(e)
		if !ok {
			return SchedText{}, fmt.Errorf("anomaly event %d is not in the schedule", e+1)
		}
		head = append(head, ' ')
		head = strconv.AppendInt(head, int64(i+1), 10)
		s.Anomaly = append(s.Anomaly, st.step(e))
	}
	head = append(head, '\n')
	if ch := st.changed(prefix, tail, stepOf); len(ch) > 0 {
		head = append(head, "changed"...)
		for _, c := range ch {
			head = append(head, ' ')
			head = append(head, c.String()...)
		}
		head = append(head, '\n')
	}
	at := make([]int, len(anomaly))
	for k, e := range anomaly {
		at[k], _ = stepOf(e)
	}
	head = appendKeys(head, at, func(k int) int64 { return s.Anomaly[k].MapKey })
	s.Head = head
	// The runs of consecutive events: the prefix, then the tail's.
	var runs []int32 // event ranges, start and end (exclusive) in turn
	if prefix > 0 {
		runs = append(runs, 0, prefix)
	}
	end := prefix
	for _, e := range tail {
		if n := len(runs); n > 0 && runs[n-1] == e {
			runs[n-1] = e + 1
		} else {
			runs = append(runs, e, e+1)
		}
		end = max(end, e+1)
	}
	if err := st.grow(end); err != nil {
		return SchedText{}, err
	}
	s.Runs = make([]int64, len(runs))
	for i, e := range runs {
		s.Runs[i] = st.off[e]
	}
	s.TailAt = st.off[prefix]
	return s, nil
}

// changed is ChangedReads of the schedule: the prefix runs in recorded
// order, so each of its reads sees the write it saw in the trace; only
// the tail's reads can change, and each starts from the last write of
// the prefix to its object.
func (st *ScheduleText) changed(prefix int32, tail []int32, stepOf func(int32) (int, bool)) []Change {
	var out []Change
	seen := map[int32]int32{} // object → the last write scheduled in the tail so far
	for k, e := range tail {
		ev := &st.tr.Events[e]
		if !ev.Op.IsAccess() || ev.Obj < 0 {
			continue
		}
		i := int(prefix) + k
		if ev.Op.Reads() {
			got, ok := seen[ev.Obj]
			if !ok {
				got = st.lastWriteBefore(ev.Obj, prefix)
			}
			if want := st.from[e]; got != want {
				switch {
				case want >= 0 && (got < 0 || got < want):
					c := Change{Read: i, Write: -1, Ahead: true}
					if p, ok := stepOf(want); ok {
						c.Write = p
					}
					if st.tr.Events[want].G != ev.G {
						out = append(out, c)
					}
				case got >= 0 && st.tr.Events[got].G != ev.G:
					p, _ := stepOf(got)
					out = append(out, Change{Read: i, Write: p})
				}
			}
		}
		if ev.Op.Writes() {
			seen[ev.Obj] = e
		}
	}
	return out
}

// lastWriteBefore returns the last write to obj before event k, -1 if
// there is none.
func (st *ScheduleText) lastWriteBefore(obj, k int32) int32 {
	if int(obj) >= len(st.wsAt)-1 {
		return -1
	}
	ws := st.ws[st.wsAt[obj]:st.wsAt[obj+1]]
	i := sort.Search(len(ws), func(i int) bool { return ws[i] >= k })
	if i == 0 {
		return -1
	}
	return ws[i-1]
}

// Close flushes and closes the steps file.
func (st *ScheduleText) Close() error {
	if st.f == nil {
		return st.err
	}
	err := st.w.Flush()
	if cerr := st.f.Close(); err == nil {
		err = cerr
	}
	st.f = nil
	if st.err == nil {
		st.err = err
	}
	if st.err == nil {
		st.err = fmt.Errorf("%s: closed", st.file)
	}
	return err
}
