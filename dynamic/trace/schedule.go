package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Schedule is a bug hatching clip: the order in which the goroutines of a
// recorded run must execute their events to expose one predicted anomaly.
// The replayer matches each step by goroutine, op, site and occurrence
// count — not by object name, which counts objects in the order a run
// first saw them — so a Schedule stays valid for every run of the same
// build. The objects of the anomaly's steps are checked as a relation:
// steps that name one object must touch one object in the replay, steps
// that name different ones different objects (v2; a v1 file is read the
// same way). So every anomaly step that acts on an object names it.
//
// Its file format is text, one step per line, in the trace text format plus
// the occurrence count:
//
//	# pecanvet schedule v2
//	build 3f2a9c1e                 (optional: identity of the instrumented build)
//	anomaly race/WR 6 7            (pattern, then the step numbers of its events)
//	changed 7<6                    (optional: reads that observe another write, Change)
//	keys 6=-87706 7=-87706         (optional: anomaly steps' map keys, Step.MapKey)
//	T1 write w @fig1.go:1 n=1
//	...
//
// Step numbers count from 1 in file order; n=K says this is the K-th event
// of that goroutine with that op at that site.
type Schedule struct {
	Build   string // identity of the instrumented build, "" if unknown
	Pattern string // "kind/name" of the anomaly
	Anomaly []int  // 0-based step indices of the anomaly's events, in pattern order
	// Changed: the schedule's reads that observe another write than in
	// the recorded run (ChangedReads), in step order. Replay may let the
	// program run free past a divergence that follows one (an
	// exploration: dynamic/rt).
	Changed []Change
	Steps   []Step
	// Ran, when positive, says that only the first Ran steps ran under
	// the schedule: an exploration diverged at step Ran+1 and the program
	// ran free from there. A clip shows those steps. Not in the file.
	Ran int
}

// Change is a read of a schedule that observes another write than it did
// in the recorded run. Ahead: the schedule runs the read before Write, a
// write of another goroutine that it read (or that came before its read)
// in the recording; else after Write, which came after it in the
// recording. Read and Write are 0-based step indices; Write is -1 when
// the write is not in the schedule (its file form: "R<0", "R>W" with step
// numbers).
type Change struct {
	Read, Write int
	Ahead       bool
}

func (c Change) String() string {
	rel := ">"
	if c.Ahead {
		rel = "<"
	}
	return strconv.Itoa(c.Read+1) + rel + strconv.Itoa(c.Write+1)
}

// Step is one event of a Schedule.
type Step struct {
	G    string
	Op   Op
	Obj  string // the object in the recorded trace; anomaly steps' are compared as a relation (see Schedule)
	Site string // "" if unknown
	N    int    // occurrence of (G, Op, Site), from 1
	// MapKey: the hash of the map key of a read or write of one map element
	// (Event.Arg, Op.HasKey), 0 for any other step. Anomaly steps' keys
	// are in the file (a "keys" line) and compared as a relation, as
	// their objects are: a schedule that pairs two accesses of one
	// element must touch one element in the replay (map iteration order
	// is random, so the n-th lookup at a site may take another key).
	MapKey int64
}

// PreRoot begins the name of a goroutine that instrumented code started
// before the process's recording began (package initialization, a
// TestMain): "p1", "p2", ... in the order of their first events in the
// trace, as the other roots are "g1", "g2", .... Such a goroutine runs in
// the replay's process too, but what wakes it may be on a clock the
// replay does not run (a ticker made at init): a replay lets it go rather
// than wait for it in vain when it has no part in the anomaly.
const PreRoot = "p"

// IsPreRoot reports whether goroutine name g is a PreRoot's ("p2", not
// "p2.1" nor "g2").
func IsPreRoot(g string) bool {
	return strings.HasPrefix(g, PreRoot) && !strings.Contains(g, ".")
}

// ScheduleHeader is the first line of a schedule file.
const ScheduleHeader = "# pecanvet schedule v2"

// scheduleV1 is the previous version's header; its files read the same.
const scheduleV1 = "# pecanvet schedule v1"

// Key identifies a step for matching.
func (s Step) Key() string { return fmt.Sprintf("%s %s @%s n=%d", s.G, s.Op, s.Site, s.N) }

func (s Step) String() string {
	var b strings.Builder
	b.WriteString(s.G)
	b.WriteByte(' ')
	b.WriteString(s.Op.String())
	if s.Obj != "" {
		b.WriteByte(' ')
		b.WriteString(s.Obj)
	}
	if s.Site != "" {
		b.WriteString(" @")
		b.WriteString(s.Site)
	}
	fmt.Fprintf(&b, " n=%d", s.N)
	return b.String()
}

// NewSchedule builds the schedule that runs the events sched (indices into
// tr.Events, in order) and whose anomaly consists of events anomaly.
func NewSchedule(tr *Trace, pattern string, sched, anomaly []int32) (*Schedule, error) {
	s := &Schedule{Pattern: pattern}
	at, err := scheduleSteps(tr, sched, anomaly, func(st Step) { s.Steps = append(s.Steps, st) })
	if err != nil {
		return nil, err
	}
	s.Anomaly = at
	s.Changed = ChangedReads(tr, sched)
	return s, nil
}

// ChangedReads returns the reads of the schedule that runs the events
// sched of tr (in order) that observe another write than they did in tr:
// a read moved ahead of the write it read, or of the last write before it
// that is still to come or left out (a check that now sees the old value),
// and a read moved after another goroutine's write that followed it in
// tr. Both are what RaceFuzzer calls a reversed race: the read may send
// its goroutine down another branch than the recorded one. Writes are
// matched by event, per object; a read of an object no write touched is
// never changed.
func ChangedReads(tr *Trace, sched []int32) []Change {
	last := int32(-1)
	for _, e := range sched {
		if e >= 0 && int(e) < len(tr.Events) {
			last = max(last, e)
		}
	}
	if last < 0 {
		return nil
	}
	// from[i]: the last write to event i's object before it in tr (-1:
	// none), for the reads.
	from := make([]int32, last+1)
	lastW := map[int32]int32{}
	for i := int32(0); i <= last; i++ {
		ev := &tr.Events[i]
		from[i] = -1
		if !ev.Op.IsAccess() || ev.Obj < 0 {
			continue
		}
		if ev.Op.Reads() {
			if w, ok := lastW[ev.Obj]; ok {
				from[i] = w
			}
		}
		if ev.Op.Writes() {
			lastW[ev.Obj] = i
		}
	}
	pos := make(map[int32]int, 64) // write event → its step
	for i, e := range sched {
		if e >= 0 && e <= last && tr.Events[e].Op.Writes() {
			pos[e] = i
		}
	}
	var out []Change
	seen := map[int32]int32{} // object → the last write scheduled so far
	for i, e := range sched {
		if e < 0 || e > last {
			continue
		}
		ev := &tr.Events[e]
		if !ev.Op.IsAccess() || ev.Obj < 0 {
			continue
		}
		if ev.Op.Reads() {
			got, ok := seen[ev.Obj]
			if !ok {
				got = -1
			}
			if want := from[e]; got != want {
				switch {
				case want >= 0 && (got < 0 || got < want):
					// The write it read (or a later one of tr's order)
					// comes after it, or never: the read runs ahead.
					c := Change{Read: i, Write: -1, Ahead: true}
					if p, ok := pos[want]; ok {
						c.Write = p
					}
					if tr.Events[want].G != ev.G {
						out = append(out, c)
					}
				case got >= 0 && tr.Events[got].G != ev.G:
					out = append(out, Change{Read: i, Write: pos[got]})
				}
			}
		}
		if ev.Op.Writes() {
			seen[ev.Obj] = e
		}
	}
	return out
}

// WriteSchedule writes, in the schedule file format, the schedule
// NewSchedule would build, without holding its steps in memory: a
// schedule runs the test from its start, so on a long trace it has
// millions of steps (some 100 bytes each in a Schedule), and a package's
// predictions wait for replay by the hundred. It returns the number of
// steps and the anomaly's steps, in pattern order.
func WriteSchedule(w io.Writer, tr *Trace, pattern string, sched, anomaly []int32) (steps int, anomalySteps []Step, err error) {
	at, err := anomalyAt(sched, anomaly)
	if err != nil {
		return 0, nil, err
	}
	bw := bufio.NewWriterSize(w, 64<<10) // megabytes for a long trace: fewer writes
	fmt.Fprintf(bw, "%s\nanomaly %s", ScheduleHeader, pattern)
	for _, i := range at {
		fmt.Fprintf(bw, " %d", i+1)
	}
	bw.WriteString("\n")
	if ch := ChangedReads(tr, sched); len(ch) > 0 {
		bw.WriteString("changed")
		for _, c := range ch {
			bw.WriteString(" " + c.String())
		}
		bw.WriteString("\n")
	}
	bw.Write(appendKeys(nil, at, func(k int) int64 { return eventKey(tr.Events[anomaly[k]]) }))
	anomalySteps = make([]Step, len(at))
	var line []byte
	if _, err := scheduleSteps(tr, sched, anomaly, func(st Step) {
		for k, i := range at {
			if i == steps {
				anomalySteps[k] = st
			}
		}
		steps++
		// st.String(), without its allocations: a schedule of a long
		// trace has tens of thousands of steps, and a test's predictions
		// are written by the dozen (conc's pool: most of predict's time).
		line = append(line[:0], st.G...)
		line = append(line, ' ')
		line = append(line, st.Op.String()...)
		if st.Obj != "" {
			line = append(line, ' ')
			line = append(line, st.Obj...)
		}
		if st.Site != "" {
			line = append(line, " @"...)
			line = append(line, st.Site...)
		}
		line = append(line, " n="...)
		line = strconv.AppendInt(line, int64(st.N), 10)
		line = append(line, '\n')
		bw.Write(line)
	}); err != nil {
		return 0, nil, err
	}
	return steps, anomalySteps, bw.Flush()
}

// anomalyAt returns the step index in sched of each event of anomaly.
func anomalyAt(sched, anomaly []int32) ([]int, error) {
	at := make([]int, len(anomaly))
	for k, e := range anomaly {
		at[k] = -1
		for i, x := range sched {
			if x == e {
				at[k] = i
				break
			}
		}
		if at[k] < 0 {
			return nil, fmt.Errorf("anomaly event %d is not in the schedule", e+1)
		}
	}
	return at, nil
}

// scheduleSteps calls emit with each step of the schedule that runs the
// events sched of tr, in order, and returns the step index of each event
// of anomaly.
func scheduleSteps(tr *Trace, sched, anomaly []int32, emit func(Step)) ([]int, error) {
	last := int32(-1)
	for _, e := range sched {
		if e < 0 || int(e) >= len(tr.Events) {
			return nil, fmt.Errorf("schedule step refers to event %d of %d", e+1, len(tr.Events))
		}
		last = max(last, e)
	}
	at, err := anomalyAt(sched, anomaly)
	if err != nil {
		return nil, err
	}
	// Occurrences count along each goroutine's program order; a schedule
	// runs a prefix of it, so counting over the events in trace order up
	// to each step's event gives the same numbers. A schedule is most of
	// the trace up to its last event (the recorded order, then the
	// anomaly's tail): a slice, not maps keyed by event.
	occ := make(map[uint64]int32, 1024)
	n := make([]int32, last+1)
	for i := int32(0); i <= last; i++ {
		ev := &tr.Events[i]
		k := uint64(uint32(ev.G))<<40 ^ uint64(ev.Op)<<32 ^ uint64(uint32(ev.Site))
		c := occ[k] + 1
		occ[k] = c
		n[i] = c
	}
	for _, e := range sched {
		ev := tr.Events[e]
		emit(Step{G: tr.Goroutines[ev.G], Op: ev.Op, Obj: tr.ObjName(ev), Site: tr.Site(ev), N: int(n[e]), MapKey: eventKey(ev)})
	}
	return at, nil
}

// eventKey is the Step.MapKey of event ev.
func eventKey(ev Event) int64 {
	if ev.Op.HasKey() {
		return ev.Arg
	}
	return 0
}

// appendKeys appends the "keys" line of a schedule whose anomaly steps
// are at (0-based step indices, in pattern order), key(k) giving the
// k-th one's Step.MapKey; nothing when none is keyed.
func appendKeys(b []byte, at []int, key func(k int) int64) []byte {
	n := 0
	for k, i := range at {
		kk := key(k)
		if kk == 0 {
			continue
		}
		if n == 0 {
			b = append(b, "keys"...)
		}
		n++
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, '=')
		b = strconv.AppendInt(b, kk, 10)
	}
	if n > 0 {
		b = append(b, '\n')
	}
	return b
}

// WriteTo writes s in the schedule file format.
func (s *Schedule) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var n int64
	p := func(format string, args ...any) {
		k, _ := fmt.Fprintf(bw, format, args...)
		n += int64(k)
	}
	p("%s\n", ScheduleHeader)
	if s.Build != "" {
		p("build %s\n", s.Build)
	}
	p("anomaly %s", s.Pattern)
	for _, i := range s.Anomaly {
		p(" %d", i+1)
	}
	p("\n")
	if len(s.Changed) > 0 {
		p("changed")
		for _, c := range s.Changed {
			p(" %s", c)
		}
		p("\n")
	}
	var at []int
	for _, i := range s.Anomaly {
		if i >= 0 && i < len(s.Steps) {
			at = append(at, i)
		}
	}
	if keys := appendKeys(nil, at, func(k int) int64 { return s.Steps[at[k]].MapKey }); len(keys) > 0 {
		p("%s", keys)
	}
	for _, st := range s.Steps {
		p("%s\n", st)
	}
	return n, bw.Flush()
}

// ParseSchedule reads a schedule file. Errors name the line.
func ParseSchedule(r io.Reader, name string) (*Schedule, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	s := &Schedule{}
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			// A step's line is about 50 bytes: grow the steps once or
			// twice, not 20 times.
			s.Steps = make([]Step, 0, min(fi.Size()/64, 1<<21))
		}
	}
	line := 0
	errf := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	sawAnomaly := false
	var anomalyLine int
	var stepLines []int // line of each step
	var keys [][2]int64 // the "keys" line: step index, Step.MapKey
	// A replay parses its schedule before the test starts: one of 390,000
	// steps (21 MB) took 0.3 s of CPU and allocated 222 MB, a line's text
	// and its fields each. Fields are read in place and their strings
	// interned (goroutines, ops, objects, sites and counts repeat).
	intern := map[string]string{}
	var f []string
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if line == 1 && bytes.HasPrefix(text, []byte("# pecanvet schedule ")) && string(text) != ScheduleHeader && string(text) != scheduleV1 {
			return nil, errf("unsupported schedule version %q (this pecanvet reads %q and %q)", strings.TrimPrefix(string(text), "# pecanvet schedule "), "v1", "v2")
		}
		if i := bytes.Index(text, []byte(" #")); i >= 0 {
			text = text[:i]
		}
		f = appendFields(f[:0], text, intern)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "build":
			if len(f) != 2 {
				return nil, errf("build takes one identifier")
			}
			s.Build = f[1]
			continue
		case "anomaly":
			if sawAnomaly {
				return nil, errf("second anomaly line")
			}
			if len(f) < 3 {
				return nil, errf("anomaly needs a pattern and at least one step number")
			}
			sawAnomaly, anomalyLine = true, line
			s.Pattern = f[1]
			for _, x := range f[2:] {
				k, err := strconv.Atoi(x)
				if err != nil || k < 1 {
					return nil, errf("bad step number %q", x)
				}
				s.Anomaly = append(s.Anomaly, k-1)
			}
			continue
		}
		if f[0] == "keys" {
			for _, x := range f[1:] {
				a, b, ok := strings.Cut(x, "=")
				i, err1 := strconv.Atoi(a)
				k, err2 := strconv.ParseInt(b, 10, 64)
				if !ok || err1 != nil || err2 != nil || i < 1 || k == 0 {
					return nil, errf("bad key %q (want STEP=HASH)", x)
				}
				keys = append(keys, [2]int64{int64(i - 1), k})
			}
			continue
		}
		if f[0] == "changed" {
			for _, x := range f[1:] {
				c, ok := parseChange(x)
				if !ok {
					return nil, errf("bad changed read %q (want R<W or R>W, step numbers)", x)
				}
				s.Changed = append(s.Changed, c)
			}
			continue
		}
		st, err := parseStep(f)
		if err != nil {
			return nil, errf("%v", err)
		}
		s.Steps = append(s.Steps, st)
		stepLines = append(stepLines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if !sawAnomaly {
		return nil, fmt.Errorf("%s: no anomaly line", name)
	}
	if len(s.Steps) == 0 {
		return nil, fmt.Errorf("%s: no steps", name)
	}
	for _, c := range s.Changed {
		if c.Read >= len(s.Steps) || c.Write >= len(s.Steps) {
			return nil, fmt.Errorf("%s: changed read %s beyond the %d steps", name, c, len(s.Steps))
		}
	}
	for _, k := range keys {
		if k[0] >= int64(len(s.Steps)) {
			return nil, fmt.Errorf("%s: key of step %d beyond the %d steps", name, k[0]+1, len(s.Steps))
		}
		s.Steps[k[0]].MapKey = k[1]
	}
	for _, k := range s.Anomaly {
		if k >= len(s.Steps) {
			line = anomalyLine
			return nil, errf("anomaly step %d beyond the %d steps", k+1, len(s.Steps))
		}
		if st := s.Steps[k]; st.Obj == "" && st.Op.Object() == ObjObject {
			line = stepLines[k]
			return nil, errf("anomaly step %d (%s) names no object: replay could not check that it touches the predicted one", k+1, st)
		}
	}
	return s, s.checkOccurrences(name)
}

// appendFields appends the fields of line, as strings.Fields splits it,
// to f, each string interned in intern.
func appendFields(f []string, line []byte, intern map[string]string) []string {
	str := func(b []byte) string {
		if s, ok := intern[string(b)]; ok {
			return s
		}
		s := string(b)
		intern[s] = s
		return s
	}
	for _, c := range line {
		if c >= utf8.RuneSelf {
			// Unicode's spaces too, as strings.Fields.
			for _, x := range strings.Fields(string(line)) {
				f = append(f, str([]byte(x)))
			}
			return f
		}
	}
	start := -1
	for i, c := range line {
		if asciiSpace[c] {
			if start >= 0 {
				f = append(f, str(line[start:i]))
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		f = append(f, str(line[start:]))
	}
	return f
}

// asciiSpace marks the ASCII bytes unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// parseChange reads a Change in its file form.
func parseChange(x string) (Change, bool) {
	i := strings.IndexAny(x, "<>")
	if i < 0 {
		return Change{}, false
	}
	r, err1 := strconv.Atoi(x[:i])
	w, err2 := strconv.Atoi(x[i+1:])
	if err1 != nil || err2 != nil || r < 1 || w < 0 {
		return Change{}, false
	}
	return Change{Read: r - 1, Write: w - 1, Ahead: x[i] == '<'}, true
}

func parseStep(f []string) (Step, error) {
	var st Step
	if len(f) < 3 {
		return st, fmt.Errorf("a step is: goroutine op [object] [@site] n=K")
	}
	st.G = f[0]
	op, ok := ParseOp(f[1])
	if !ok {
		return st, fmt.Errorf("unknown op %q", f[1])
	}
	st.Op = op
	rest := f[2:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "@") && !strings.HasPrefix(rest[0], "n=") {
		st.Obj = rest[0]
		check := checkName
		if op.Object() == ObjObject {
			check = checkObjectName
		}
		if msg, _ := check(st.Obj); msg != "" {
			return st, fmt.Errorf("bad object %s: %s", quote(st.Obj), msg)
		}
		rest = rest[1:]
	}
	if len(rest) > 0 && strings.HasPrefix(rest[0], "@") {
		st.Site = rest[0][1:]
		if st.Site == "" {
			return st, fmt.Errorf("empty site")
		}
		rest = rest[1:]
	}
	if len(rest) != 1 || !strings.HasPrefix(rest[0], "n=") {
		return st, fmt.Errorf("a step ends with n=K (its occurrence count)")
	}
	n, err := strconv.Atoi(rest[0][2:])
	if err != nil || n < 1 {
		return st, fmt.Errorf("bad occurrence %q", rest[0])
	}
	st.N = n
	return st, nil
}

// checkOccurrences verifies that within each goroutine the occurrence
// counts of one (op, site) are 1, 2, 3, …, as they are in a prefix of a
// program order.
func (s *Schedule) checkOccurrences(name string) error {
	type k struct {
		g    string
		op   Op
		site string
	}
	seen := map[k]int{}
	for i, st := range s.Steps {
		key := k{st.G, st.Op, st.Site}
		if st.N != seen[key]+1 {
			return fmt.Errorf("%s: step %d (%s): occurrence %d, want %d (a schedule runs a prefix of each goroutine)", name, i+1, st, st.N, seen[key]+1)
		}
		seen[key] = st.N
	}
	return nil
}
