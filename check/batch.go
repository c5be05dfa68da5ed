package check

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// prediction is one predicted anomaly of a test with its schedule: in
// memory (s), or, as check makes them, in text (text) that is written to
// its file (file, of steps steps, anomaly its anomaly's steps) when it is
// replayed. A schedule replays the test from its start, so on a long
// trace it has millions of steps, and a package's predictions wait for
// replay by the hundred: held in memory as Steps, they took gigabytes
// (ants); written each to its file, 41% of the check's CPU (ants), most
// of them never replayed. The text is its header in memory and byte
// ranges of the trace's steps file, one per run of consecutive events
// (trace.ScheduleText): the steps after the prefix, held in memory as
// text, took 750 MB on go-datastructures' btree/immutable.
type prediction struct {
	a       predict.Anomaly
	s       *trace.Schedule
	file    string
	text    *schedFile // nil: the schedule is in file already
	steps   int
	anomaly []trace.Step
	sum     [sha256.Size]byte // of the schedule's text: equal sums, the same steps
	// unordered: a race whose accesses no recorded synchronization orders
	// (hb.Ordered); if its replay diverges, the race detector may still
	// confirm it (confirmUnordered).
	unordered bool
	// resting: a lost signal whose waiter the recorded run left blocked
	// in a Wait at the same site on the same Cond (restsAtEnd); idle: it
	// did nothing after the Wait the signal woke but wait there again
	// (idleAfter).
	resting, idle bool
	// endBlocked: a leak whose stranded operation's site is one the
	// recorded run, which passed, left a goroutine blocked in at its end
	// (blockedAtEnd): the goroutine is stranded on a passing path too,
	// so a replay that strands it on a failing one is not excused
	// (helperTimedOut).
	endBlocked bool
	// pre: the schedule's first pre steps are the first pre lines of its
	// trace's steps file (text.File), which idx reads for all the trace's
	// predictions (nil: infer and doomed read the text).
	pre int
	idx *stepIndex
	// moved and broken rank the prediction (filters.order): the steps of
	// its schedule's tail, and the read-from relations they break (only
	// with Options.RankReadsFrom), taken before the tail is dropped
	// (filters.rate).
	moved, broken int
	// wrongShape: the shape (wrongObjectShape) of the wrong-object
	// verdict of an earlier instance of its combination in its trace, set
	// by the queue when it starts the replay: a run alike needs no more
	// runs (replayRetrying).
	wrongShape string
	// wrongShapes: the shapes of the wrong objects that earlier
	// instances of other combinations sharing two of its anomaly's sites
	// showed after all their runs (relatedWrongShapes), set with
	// wrongShape: a run alike needs no more runs either.
	wrongShapes []string
	// wrongRuns: the runs of the schedule that already touched other
	// objects (a batch's, before the queue replays it alone), counted
	// among wrongObjectRuns.
	wrongRuns int
}

// wrongAlike reports whether v touched other objects as an earlier
// instance of p's combination did (p.wrongShape).
func (p prediction) wrongAlike(v replay.Verdict) bool {
	if p.wrongShape == "" && len(p.wrongShapes) == 0 || v.Verdict != replay.WrongObject {
		return false
	}
	shape, ok := wrongObjectShape(v.Message)
	return ok && (shape == p.wrongShape || slices.Contains(p.wrongShapes, shape))
}

// schedFile is a prediction's schedule text, written to its file once
// (copies of the prediction share it).
type schedFile struct {
	trace.SchedText
	once sync.Once
	err  error
}

// open returns the text of the schedule file of p (s nil).
func (p prediction) open() (io.ReadCloser, error) {
	if p.text != nil {
		return p.text.Open()
	}
	return os.Open(p.file)
}

// writeFile makes sure p's schedule file exists, for a replay to read.
func (p prediction) writeFile() error {
	if p.text == nil {
		return nil
	}
	p.text.once.Do(func() { p.text.err = p.text.WriteFile(p.file) })
	return p.text.err
}

// schedule returns the prediction's schedule: for one in a file, read
// whole if full, else only its anomaly's steps (what a finding that was
// not reproduced shows).
func (p prediction) schedule(full bool) (*trace.Schedule, error) {
	if p.s != nil {
		return p.s, nil
	}
	if !full {
		s := &trace.Schedule{Pattern: p.a.Pattern.ID(), Steps: p.anomaly}
		for k := range p.anomaly {
			s.Anomaly = append(s.Anomaly, k)
		}
		return s, nil
	}
	f, err := p.open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return trace.ParseSchedule(f, p.file)
}

// stepG returns the goroutine of step k (from 1), "" if there is none.
func (p prediction) stepG(k int) string {
	g, n := "", 0
	p.eachStepG(func(h string) bool {
		if n++; n == k {
			g = h
			return false
		}
		return true
	})
	return g
}

// len returns the number of steps.
func (p prediction) len() int {
	if p.s != nil {
		return len(p.s.Steps)
	}
	return p.steps
}

// eachStepG calls f with the goroutine of each step in order, until f
// returns false.
func (p prediction) eachStepG(f func(g string) bool) {
	if p.s != nil {
		for _, st := range p.s.Steps {
			if !f(st.G) {
				return
			}
		}
		return
	}
	file, err := p.open()
	if err != nil {
		return
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "anomaly ") || strings.HasPrefix(l, "build ") || strings.HasPrefix(l, "changed ") || strings.HasPrefix(l, "keys ") {
			continue
		}
		g, _, _ := strings.Cut(l, " ")
		if !f(g) {
			return
		}
	}
}

// eachStep calls anomaly with the anomaly's step indices (from 0, in
// pattern order), then f with the goroutine and the text (as a schedule
// file has it) of each step in order, until f returns false. g and text
// are valid only during the call: a file's lines are not copied, since a
// schedule of a long trace has tens of thousands of them and sig reads
// it again for each failure step (a string per line was most of the
// replay queue's CPU on conc's pool).
func (p prediction) eachStep(anomaly func(at []int), f func(g, text []byte) bool) {
	if p.s != nil {
		anomaly(p.s.Anomaly)
		for _, st := range p.s.Steps {
			if !f([]byte(st.G), []byte(st.String())) {
				return
			}
		}
		return
	}
	file, err := p.open()
	if err != nil {
		anomaly(nil)
		return
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	told := false
	for sc.Scan() {
		l := sc.Bytes()
		// (A "changed" line lists the reads that see another write:
		// read as a step, it put the prediction's own numbers in every
		// prefix, and no failure or doom was ever shared between two
		// predictions that had one.)
		if len(l) == 0 || l[0] == '#' || bytes.HasPrefix(l, []byte("build ")) || bytes.HasPrefix(l, []byte("changed ")) || bytes.HasPrefix(l, []byte("keys ")) {
			continue
		}
		if rest, ok := bytes.CutPrefix(l, []byte("anomaly ")); ok {
			var at []int
			for _, x := range strings.Fields(string(rest))[1:] {
				n, err := strconv.Atoi(x)
				if err != nil {
					at = append(at, -1) // unreadable: before any step
					continue
				}
				at = append(at, n-1)
			}
			anomaly(at)
			told = true
			continue
		}
		if !told {
			anomaly(nil)
			told = true
		}
		g := l
		if i := bytes.IndexByte(l, ' '); i >= 0 {
			g = l[:i]
		}
		if !f(g, l) {
			return
		}
	}
}

// newPrediction renders the schedule of anomaly a with st, the
// ScheduleText of a's trace, to be written to file when replayed.
func newPrediction(st *trace.ScheduleText, idx *stepIndex, a predict.Anomaly, file string) (prediction, error) {
	s, err := st.Schedule(a.Pattern.ID(), a.Schedule.Prefix, a.Schedule.Tail, a.Events)
	if err != nil {
		return prediction{}, err
	}
	p := prediction{a: a, file: file, text: &schedFile{SchedText: s}, steps: s.Steps, anomaly: s.Anomaly, pre: int(a.Schedule.Prefix), idx: idx}
	// The sum stands for the text: within a trace (the queue compares
	// the sums of one trace's predictions), a step's line names one
	// event, so the same header, prefix length and tail are the same
	// text once the tail's events that continue the prefix are counted
	// in it.
	prefix, tail := a.Schedule.Prefix, a.Schedule.Tail
	for len(tail) > 0 && tail[0] == prefix {
		prefix, tail = prefix+1, tail[1:]
	}
	h := sha256.New()
	h.Write(s.Head)
	var b []byte
	b = binary.AppendVarint(b, int64(prefix))
	for _, e := range tail {
		b = binary.AppendVarint(b, int64(e))
	}
	h.Write(b)
	h.Sum(p.sum[:0])
	return p, nil
}

// Replay outcome of a prediction in a batch.
const (
	pOpen     = iota // not known yet whether it is needed
	pNeeded          // to replay
	pRunning         // replaying
	pDone            // replayed
	pSkipped         // not needed: its site combination is proved, or the same schedule ran
	pDropped         // needed, but over -maxreplays or the budget
	pDoomed          // not needed: an earlier replay of its trace showed it would deadlock (doom)
	pInferred        // pruned without a replay: an earlier replay of its trace failed within the steps it begins with (failure)
)

// replayBatch replays a test's predictions (a queue of one trace: see
// replayQueue), appends the findings to rep and the reproduced site
// combinations to seen, and returns the number of needed predictions not
// replayed.
func replayBatch(ctx context.Context, b *testbin.Build, pkg, test string, tr *trace.Trace, preds []prediction,
	dir string, deadline time.Time, opt Options, seen map[string]bool, rep *Report) int {
	q := newReplayQueue(ctx, b, pkg, deadline, opt, seen)
	q.add(test, tr, preds, dir, opt.MaxReplays, opt.Replay)
	q.wait()
	return q.finish(seen, rep)[0].skipped
}

// runReplay is replayRetrying (a variable for tests).
var runReplay = replayRetrying
