package check

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/static/depend"
	"github.com/pecanvet/pecanvet/static/load"
)

// Effect reports whether the replay showed an effect of the interleaving:
// the test failed or panicked, otherwise than its recorded run did, or
// the program hung for good after the schedule let go (the replay's
// consequence then says so). A reproduced lock-order inversion is its
// own effect: its proof is that the replay deadlocked there
// (replay.Verdict.Deadlocked), whatever the test does otherwise. A
// failure that a serial control of the schedule shows too (Control) is
// the schedule's timing, not the interleaving's: no effect; nor is a test
// killed at the replay's time bound without a verdict of its own
// (replay.Verdict.Unended), nor how a test ended whose replay held
// goroutines of a testing/synctest bubble (replay.Verdict.Bubble): the
// bubble counts them as blocked and may move its fake clock early, or
// panic with "deadlock", where no real run would (pion/transport's
// TestDuplicationFilterBucketCoalescing measured 961 µs of fake time
// where every real run gives 1 ms). The bubble's view makes blocking
// proofs no evidence either: a deadlock, leak or early Wait the replay
// reached there may rest on a clock the holds moved or a synctest.Wait
// they let return early.
func (f *Finding) Effect() bool {
	v := f.Verdict
	if p := f.Anomaly.Pattern; p != nil && p.Order {
		return f.Reproduced() // its panic in the package's code
	}
	if f.Blocking() {
		return !v.Bubble
	}
	return (!v.Passed || v.Panicked) && !v.AsBaseline && !v.Unended && v.Detour == "" && !v.Bubble && f.Control == ""
}

// Blocking reports whether the finding's replay showed the blocking bug
// its pattern predicts: a deadlock, a leak or an early Wait.
func (f *Finding) Blocking() bool {
	return f.Deadlock() || f.Leak() || f.EarlyWait()
}

// Deadlock reports whether the finding is a lock-order inversion (or a
// recursive read lock behind a writer) whose replay deadlocked as
// predicted, or a lost signal whose replay ended with the waiter blocked
// in its Wait for good, or a double lock whose replay ended with the
// reader blocked in a lock it holds.
func (f *Finding) Deadlock() bool {
	p := f.Anomaly.Pattern
	return f.Reproduced() && (p.Lock && len(f.Verdict.Deadlocked) >= 2 || (p.Cond || p.Relock) && len(f.Verdict.Deadlocked) > 0)
}

// Leak reports whether the finding is a goroutine leak whose replay
// ended its test with the stranded goroutine blocked forever, as
// predicted: a reproduced leak is its own effect, whatever the test does.
func (f *Finding) Leak() bool {
	return f.Reproduced() && f.Anomaly.Pattern.Leak && len(f.Verdict.Leaked) > 0
}

// EarlyWait reports whether the finding is a WaitGroup.Add after Wait
// whose replay ran the Wait, which returned, before the Add: the sync
// package's rule (an Add from 0 happens before Wait) broken, its own
// effect, whatever the test does with the missing work.
func (f *Finding) EarlyWait() bool {
	return f.Reproduced() && f.Anomaly.Pattern.WG
}

// needsJudging reports whether a finding's report rests on the dependence
// criterion: a reproduced atomicity or atomic-set violation without an
// effect, not found by a generated driver (whose calls are pecanvet's
// guess), not across a re-check under a lock (whose re-read decides) and
// not of an acting pattern (which needs an effect: WithoutEffect), nor
// one whose unit its controls showed waiting on the other goroutines
// (unitWaits: no unit at all).
func (f *Finding) needsJudging() bool {
	p := f.Anomaly.Pattern
	return f.Reproduced() && !p.Adjacent && !p.Acting && !f.Effect() && f.Driver == "" && !f.Anomaly.Recheck && f.Control != unitWaits && len(f.SilentStores()) == 0
}

// pairForGrouping reports whether a finding reported for its effect is
// judged all the same, only for its dependence's site pair (see group):
// one that needsJudging but for its effect. Its report keeps saying the
// effect; the pair only ties it to the dependence-only findings of its
// bug. zap's sampler: the av at sampler.go:66 fails the test, and so do
// two atomic-set violations of the same reset, while a third, whose
// replay passed, was reported apart for the pair (:66, :68) that those
// two join as well.
func (f *Finding) pairForGrouping() bool {
	p := f.Anomaly.Pattern
	return f.Reproduced() && !p.Adjacent && !p.Acting && !p.Order && f.Effect() && f.Driver == "" && !f.Anomaly.Recheck && len(f.SilentStores()) == 0
}

// SilentStores returns the steps (indices into the schedule) of a
// reproduced atomicity or atomic-set violation's atomic stores that
// stored the value already there in its replay (replay.Verdict.Silent),
// when the anomaly's steps are conflict-serializable once those count as
// reads; else nil. A silent store changes no value: a read before it and
// one after see the same, and in a serial order that keeps every other
// conflict's order each read, the store's own look at its location
// included, sees the same write, so the store is silent there too and
// every value read is the replay's. The interleaving then changes no
// value anyone uses: no dependence. goburrow/cache's write copies an
// entry's writeTime onto the entry itself (cen == en, lru.go:136).
func (f *Finding) SilentStores() []int {
	s, v := f.Schedule, f.Verdict
	if len(v.Silent) == 0 || s == nil || !f.Reproduced() || v.Explored || v.Interrupted || f.Anomaly.Pattern == nil {
		return nil
	}
	if k := f.Anomaly.Pattern.Kind; k != "av" && k != "asv" {
		return nil
	}
	silent := map[int]bool{}
	for _, n := range v.Silent {
		if i := n - 1; i >= 0 && i < len(s.Steps) && slices.Contains(s.Anomaly, i) && s.Steps[i].Op == trace.AtomicStore {
			silent[i] = true
		}
	}
	if len(silent) == 0 {
		return nil
	}
	a := slices.Clone(s.Anomaly)
	slices.Sort(a)
	for _, i := range a {
		if i < 0 || i >= len(s.Steps) {
			return nil
		}
	}
	writes := func(i int) bool { return s.Steps[i].Op.Writes() && !silent[i] }
	// The conflict graph between the goroutines: an edge g → h when g's
	// step comes first on an object both touch, one of them writing.
	reach := map[[2]string]bool{}
	var gs []string
	for x, i := range a {
		if !slices.Contains(gs, s.Steps[i].G) {
			gs = append(gs, s.Steps[i].G)
		}
		for _, j := range a[x+1:] {
			si, sj := s.Steps[i], s.Steps[j]
			if si.G != sj.G && si.Obj == sj.Obj && (writes(i) || writes(j)) {
				reach[[2]string{si.G, sj.G}] = true
			}
		}
	}
	for _, k := range gs {
		for _, g := range gs {
			for _, h := range gs {
				if reach[[2]string{g, k}] && reach[[2]string{k, h}] {
					reach[[2]string{g, h}] = true
				}
			}
		}
	}
	for _, g := range gs {
		if reach[[2]string{g, g}] {
			return nil // still a cycle: not serializable
		}
	}
	var out []int
	for _, i := range a {
		if silent[i] {
			out = append(out, i)
		}
	}
	return out
}

// judgeDependence decides the dependence criterion (static/depend) for the
// findings of one package that need it, setting Finding.Dependence, from
// the packages the pipeline loaded (SSA is built only when one needs it).
// When the package's code cannot be analyzed, its violations count as
// without effect, and a note says so.
func judgeDependence(loaded *load.Packages, pkg string, fs []Finding, rep *Report) {
	newDependIndex(loaded, pkg).judgeFindings(fs, rep)
}

// dependIndex is a package's static/depend index, built on first use and
// kept: the replay queue judges a reproduction's dependence as it comes
// (keyVerdicts), and judgeDependence judges all of them after the
// queues, from the same index. An Index is not safe for concurrent use
// (it caches as it judges): mu serializes its users.
type dependIndex struct {
	loaded *load.Packages
	pkg    string

	mu    sync.Mutex
	built bool
	x     *depend.Index
	err   error
	// judged keeps, for each reproduction judged (mu held), what the
	// judges took from its replay trace, so that the trace is read once:
	// the queue judges a reproduction as it comes (casVoid, dependence)
	// and judgeFindings judges it again after the queues. Reading it back
	// whole each time was most of pecanvet's own CPU on
	// marusama/semaphore (session 52: 1.6 M events, 3 s a read); keeping
	// the decoded traces instead would hold one per reproduction of the
	// package (90 MiB each there).
	judged map[judgedKey]*judgedTrace
}

// judgedKey names one replay's finding: its trace file and schedule (one
// per replayed item, never changed once replayed) and its pattern. What
// the judges take from the trace depends on nothing else of the finding
// (its anomaly, schedule and trace: dependEvents and the judges of
// judgeOne read no other field), nor on when they run.
type judgedKey struct {
	trace string
	s     *trace.Schedule
	p     *pattern.Pattern
}

// judgedTrace is what the judges took from one replay's trace.
type judgedTrace struct {
	casDone bool           // cas is voidEffect's answer, once asked
	cas     string         // (serialReplay too reads only the key's fields)
	evs     []depend.Event // judgeOne's events as its judges left them; nil: not yet
}

// judgedOf is f's entry in d.judged (mu held), nil for a finding without
// a replay trace.
func (d *dependIndex) judgedOf(f *Finding) *judgedTrace {
	if f.Verdict.Trace == "" || f.Schedule == nil || f.Anomaly.Pattern == nil {
		return nil
	}
	k := judgedKey{f.Verdict.Trace, f.Schedule, f.Anomaly.Pattern}
	j := d.judged[k]
	if j == nil {
		if d.judged == nil {
			d.judged = map[judgedKey]*judgedTrace{}
		}
		j = &judgedTrace{}
		d.judged[k] = j
	}
	return j
}

// casVoidOf is voidEffect with x's rounds, asked once per replay (mu
// held).
func (d *dependIndex) casVoidOf(x *depend.Index, f *Finding, rt *replayTrace) string {
	j := d.judgedOf(f)
	if j == nil {
		return voidEffect(x, f, rt)
	}
	if !j.casDone {
		j.cas, j.casDone = voidEffect(x, f, rt), true
	}
	return j.cas
}

// judgedEvents is f's events for x.Judge as judgeOne's judges leave them,
// judged once per replay (mu held). x.Judge and abandoned only read them.
func (d *dependIndex) judgedEvents(x *depend.Index, f *Finding, rt *replayTrace) []depend.Event {
	j := d.judgedOf(f)
	if j != nil && j.evs != nil {
		return j.evs
	}
	evs := dependEvents(f)
	claimSpans(f, evs, x.IsCAS)
	retries(f, evs, x.ExitTest, rt)
	polls(f, evs, x.PollRead, rt)
	handed(f, evs, x.AddDelta, rt)
	witnesses(f, evs, x.AddDelta, rt)
	givenBack(f, evs, x.AddDelta)
	settled(f, evs, x.AddDelta, rt)
	supersedes(f, evs, x.IsAtomicAdd, rt)
	spares(f, evs, x.DeletesElement, rt)
	storedAgain(f, evs, rt)
	unusedReads(f, evs, x.UnusedSinks, rt)
	sliceLens(f, evs, x.LenTested, rt)
	lenAheads(f, evs, rt)
	voidRounds(f, evs, x.VoidLoad, x.InVoidLoop, rt)
	if j != nil {
		j.evs = evs
	}
	return evs
}

// judgedAll, once rt has read f's trace, has every judge take from it
// what it needs (mu held): the decoded trace can then go, and no later
// judge of f reads the file again.
func (d *dependIndex) judgedAll(x *depend.Index, f *Finding, rt *replayTrace) {
	if rt.read && rt.tr != nil && f.Reproduced() && d.judgedOf(f) != nil {
		d.casVoidOf(x, f, rt)
		d.judgedEvents(x, f, rt)
	}
}

func newDependIndex(loaded *load.Packages, pkg string) *dependIndex {
	return &dependIndex{loaded: loaded, pkg: pkg}
}

// index builds the index once (d.mu held).
func (d *dependIndex) index() (*depend.Index, error) {
	if d.built {
		return d.x, d.err
	}
	d.built = true
	var own []*packages.Package
	root := ""
	if d.loaded != nil {
		for _, p := range d.loaded.List {
			if p.PkgPath == d.pkg || p.PkgPath == d.pkg+"_test" {
				own = append(own, p)
				if p.Module != nil && root == "" {
					root = p.Module.Dir
				}
			}
		}
	}
	d.x, d.err = depend.Build(own, root)
	return d.x, d.err
}

// judgeFindings is judgeDependence's work, with d's index.
func (d *dependIndex) judgeFindings(fs []Finding, rep *Report) {
	todo, _ := toJudge(d.pkg, fs)
	var acting, cas []int
	for i := range fs {
		if fs[i].Package == d.pkg && fs[i].actingEffect() {
			acting = append(acting, i)
		}
		if fs[i].Package == d.pkg && fs[i].casEffect() {
			cas = append(cas, i)
		}
	}
	if len(todo) == 0 && len(acting) == 0 && len(cas) == 0 {
		// No report rests on a dependence: nothing for an effect's
		// finding to be grouped with by its pair, and no SSA to build.
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	x, err := d.index()
	if err != nil {
		if len(todo) > 0 {
			rep.addNote(note.Static, d.pkg, "", "the dependence criterion cannot be decided (%v): %d violations without an effect are not reported", err, len(todo))
		}
		return
	}
	for _, i := range cas {
		// Its effect withdrawn, the finding is judged by the dependence
		// criterion like any other without one.
		rt := &replayTrace{f: &fs[i]}
		fs[i].Control = d.casVoidOf(x, &fs[i], rt)
		d.judgedAll(x, &fs[i], rt)
	}
	for _, i := range acting {
		if fs[i].Control == "" && x.ActAlike(dependEvents(&fs[i])) {
			fs[i].Control = actAlike
		}
	}
	todo, pairs := toJudge(d.pkg, fs)
	if len(todo) == 0 && len(acting) == 0 {
		// As when no finding needed x: its pairs are not judged either
		// (the group a finding with an effect leads stays as it was).
		return
	}
	judgeAll(fs, todo, pairs, func(f *Finding) (depend.Verdict, bool) { return d.judgeOne(x, f, &replayTrace{f: f}) })
}

// judgeOne judges finding f's dependence with index x (mu held), rt
// reading its replay trace if its judges did not yet: the verdict, and
// whether it counts.
func (d *dependIndex) judgeOne(x *depend.Index, f *Finding, rt *replayTrace) (depend.Verdict, bool) {
	if d.casVoidOf(x, f, rt) == casRound {
		// The unit's event that another's falls after is in a void
		// round: the run is one where the unit came after it whole.
		return depend.Verdict{}, false
	}
	evs := d.judgedEvents(x, f, rt)
	v := x.Judge(evs)
	return v, v.Holds && !abandoned(f.Schedule, evs, v, f.Verdict, x.IsCAS)
}

// dependence reports whether finding f, needing the dependence criterion
// (needsJudging), has a dependence that counts, judged as judgeFindings
// will, rt reading its replay trace; false when the package's code
// cannot be analyzed.
func (d *dependIndex) dependence(f *Finding, rt *replayTrace) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	x, err := d.index()
	if err != nil {
		return false
	}
	_, ok := d.judgeOne(x, f, rt)
	d.judgedAll(x, f, rt)
	return ok
}

// casEffect reports whether a finding is a reproduced atomicity or
// atomic-set violation that counts by its replay's effect, for
// casRetried to judge.
func (f *Finding) casEffect() bool {
	k := f.Anomaly.Pattern.Kind
	return f.Reproduced() && (k == "av" || k == "asv") && f.Driver == "" && f.Effect()
}

// casVoid returns, for finding f counting by its effect, the Control
// that withdraws the effect, judged as judgeFindings will (voidEffect);
// "" when none does or the package's code cannot be analyzed. rt reads
// f's replay trace; once read, every judge takes from it what it needs
// (judgedAll).
func (d *dependIndex) casVoid(f *Finding, rt *replayTrace) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	x, err := d.index()
	if err != nil {
		return ""
	}
	void := d.casVoidOf(x, f, rt)
	d.judgedAll(x, f, rt)
	return void
}

// voidEffect returns the Control that withdraws the effect of f, a
// finding counting by its effect (casEffect): casRound when its
// interleaved part is a void compare-and-swap round (casRetried),
// serialRun when its replay's trace is a run with the unit whole
// (serialReplay); "" otherwise.
func voidEffect(x *depend.Index, f *Finding, rt *replayTrace) string {
	if casRetried(f, dependEvents(f), x.RoundEnd, rt) {
		return casRound
	}
	if serialReplay(f, x.RoundEnd, rt) {
		return serialRun
	}
	return ""
}

// toJudge gives the findings of package pkg that needsJudging (todo) and
// those judged only for their pair (pairForGrouping).
func toJudge(pkg string, fs []Finding) (todo, pairs []int) {
	for i := range fs {
		if fs[i].Package != pkg {
			continue
		}
		if fs[i].needsJudging() {
			todo = append(todo, i)
		} else if fs[i].pairForGrouping() {
			pairs = append(pairs, i)
		}
	}
	return todo, pairs
}

// judgeAll sets the dependence of the findings todo and only the site
// pair of those of pairs (see pairForGrouping) that judge says holds.
func judgeAll(fs []Finding, todo, pairs []int, judge func(*Finding) (depend.Verdict, bool)) {
	for _, i := range todo {
		if v, ok := judge(&fs[i]); ok {
			fs[i].Dependence = v.String()
			fs[i].dependPair = v.Pair
		}
	}
	for _, i := range pairs {
		if v, ok := judge(&fs[i]); ok {
			fs[i].dependPair = v.Pair
		}
	}
}

// actingEffect reports whether a finding is a reproduced acting violation
// (av/RRW: another goroutine's check inside the unit's check-then-act)
// that counts by its replay's effect alone, for depend.ActAlike to judge.
func (f *Finding) actingEffect() bool {
	return f.Reproduced() && f.Anomaly.Pattern.Acting && f.Driver == "" && f.Effect()
}

// actAlike is the control's reason (Finding.Control) when depend.ActAlike
// holds: the replay's failure then needs something other than the
// interleaving (ulule/limiter's TestCacheIncrementConcurrent, which fails
// in plain runs by its timing).
const actAlike = "the other goroutine missed at the same load and runs the same code, whose LoadOrStore then loads what the unit stored and does with it what a hit does: its load had no effect, so the run is one where it came after the store and hit"

// dependEvents describes a finding's events for depend.Judge.
func dependEvents(f *Finding) []depend.Event {
	a := f.Anomaly
	p := a.Pattern
	evs := make([]depend.Event, len(a.Events))
	for k := range a.Events {
		e := depend.Event{Thread: p.T[k], Unit: p.AR[k], Var: p.SV[k], Site: a.Sites[k]}
		switch p.AT[k] {
		case pattern.R:
			e.Read = true
		case pattern.W:
			e.Write = true
		}
		if st := f.Schedule.Steps[f.Schedule.Anomaly[k]]; st.Op.String() == "atomic-rmw" {
			e.Read, e.Write = true, true
		}
		if k < len(a.Keys) {
			e.Key = a.Keys[k]
		}
		if k < len(a.Frames) {
			for _, fr := range a.Frames[k] {
				e.Frames = append(e.Frames, depend.Frame{ID: fr.Begin, Site: fr.Site})
			}
		}
		evs[k] = e
	}
	rereads(f, evs)
	claims(f, evs)
	afters(f, evs)
	overwrites(f, evs)
	priors(f, evs)
	beforeUnits(f, evs)
	freshReads(f, evs)
	checkedCalls(f, evs)
	return evs
}

// freshReads fills Event.Fresh from the replayed schedule: for a write,
// the sites of its goroutine's reads of the same object after the last of
// the other units' events before it, in the write's activation (no region
// of the goroutine begins or ends between the read and the write), with
// no other goroutine's write of the object between. Such a read saw the
// others' writes of the pattern; a write built from it loses none of
// them (go-deadlock's postLock looks its lock's holders up again under
// l.mu and appends to what it found).
func freshReads(f *Finding, evs []depend.Event) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	p := f.Anomaly.Pattern
	for j := range evs {
		if !evs[j].Write || s.Anomaly[j] >= len(s.Steps) {
			continue
		}
		last := -1
		for k := range evs {
			if (p.T[k] != p.T[j] || p.AR[k] != p.AR[j]) && s.Anomaly[k] < s.Anomaly[j] {
				last = max(last, s.Anomaly[k])
			}
		}
		if last < 0 {
			continue
		}
		b := s.Steps[s.Anomaly[j]]
		for st := s.Anomaly[j] - 1; st > last; st-- {
			c := s.Steps[st]
			if c.G == b.G && (c.Op == trace.RegionBegin || c.Op == trace.RegionEnd) {
				break
			}
			if c.Obj != b.Obj {
				continue
			}
			if c.G != b.G && writes(c.Op) {
				break
			}
			if c.G == b.G && c.Op == trace.Read && c.Site != "" {
				evs[j].Fresh = append(evs[j].Fresh, c.Site)
			}
		}
	}
}

// claimSpans fills Event.Claim from the replayed schedule: for a read
// (not a read-modify-write), when the last write of its object before it
// is another goroutine's compare-and-swap (isCAS), that goroutine's next
// write of the object after it with no region of the goroutine beginning
// or ending between (one activation), and the pattern's events of that
// goroutine from the CAS to that write, which carry the activation's
// frames. A claim whose end the schedule does not show, or that holds
// none of the pattern's events, is left out.
func claimSpans(f *Finding, evs []depend.Event, isCAS func(string) bool) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	for i := range evs {
		at := s.Anomaly[i]
		if !evs[i].Read || evs[i].Write || at >= len(s.Steps) {
			continue
		}
		r := s.Steps[at]
		c := at - 1
		for c >= 0 && (s.Steps[c].Obj != r.Obj || !writes(s.Steps[c].Op)) {
			c--
		}
		if c < 0 || s.Steps[c].G == r.G || s.Steps[c].Op != trace.AtomicRMW || !isCAS(s.Steps[c].Site) {
			continue
		}
		cg, end := s.Steps[c].G, -1
		for st := c + 1; st < len(s.Steps) && end < 0; st++ {
			b := s.Steps[st]
			if b.G != cg {
				continue
			}
			if b.Op == trace.RegionBegin || b.Op == trace.RegionEnd {
				break
			}
			if b.Obj == r.Obj && writes(b.Op) {
				end = st
			}
		}
		if end < 0 {
			continue
		}
		cl := &depend.Claim{CAS: s.Steps[c].Site, End: s.Steps[end].Site}
		for k, st := range s.Anomaly {
			if st >= c && st <= end && s.Steps[st].G == cg {
				cl.Within = append(cl.Within, k)
				cl.Frames = evs[k].Frames
			}
		}
		if len(cl.Within) > 0 {
			evs[i].Claim = cl
		}
	}
}

// retries fills Event.Retried from the replay's own trace, for the reads
// that wait (depend's ExitTest: the value is tested, and used only past
// the loop's exit): the read's goroutine's next event there is the same
// operation at the same site on the same object (the loop came round),
// or, when the exit's first step is a sync/atomic call (exit), anything
// but that call (Pop's last nil read before its bound panics: its
// activation's end), or nothing in a trace not cut short: the test did
// not let it out. The trace is read (through rt) only when some read
// waits.
func retries(f *Finding, evs []depend.Event, wait func(site string) (exit string, ok bool), rt *replayTrace) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) || f.Verdict.Trace == "" {
		return
	}
	exits := map[int]string{}
	for i := range evs {
		if evs[i].Read && !evs[i].Write {
			if exit, ok := wait(evs[i].Site); ok {
				exits[i] = exit
			}
		}
	}
	if len(exits) == 0 {
		return
	}
	tr, pos := rt.get()
	if tr == nil {
		return
	}
	for i, exit := range exits {
		if s.Anomaly[i] >= len(pos) {
			continue
		}
		p := pos[s.Anomaly[i]]
		if p < 0 {
			continue
		}
		e := tr.Events[p]
		// Nothing more: a complete trace says the goroutine did not take
		// the exit; a truncated one may have lost its tail (a panic
		// leaves the reorder buffer unwritten).
		evs[i].Retried = exit != "" && tr.Truncated == ""
		for k := p + 1; k < len(tr.Events); k++ {
			n := tr.Events[k]
			if n.G != e.G {
				continue
			}
			again := n.Op == e.Op && n.Site == e.Site && eventObj(tr, n) == eventObj(tr, e)
			evs[i].Retried = again || exit != "" && tabName(tr.Sites, n.Site) != exit
			break
		}
	}
}

// polls fills Event.Retried from the replay's own trace for the reads
// of a polled condition (depend's PollRead): the read's goroutine read
// the same object at the same site again later, which, its Test calling
// the poller once, is the poller's next poll, after the condition with
// this read returned false. The trace is read (through rt) only when
// some read is a poll's.
func polls(f *Finding, evs []depend.Event, poll func(site string) bool, rt *replayTrace) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) || f.Verdict.Trace == "" {
		return
	}
	var todo []int
	for i := range evs {
		if evs[i].Read && !evs[i].Write && !evs[i].Retried && poll(evs[i].Site) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return
	}
	tr, pos := rt.get()
	if tr == nil {
		return
	}
	for _, i := range todo {
		if s.Anomaly[i] >= len(pos) || pos[s.Anomaly[i]] < 0 {
			continue
		}
		p := pos[s.Anomaly[i]]
		e := tr.Events[p]
		for k := p + 1; k < len(tr.Events); k++ {
			if n := tr.Events[k]; n.G == e.G && n.Op == e.Op && n.Site == e.Site && eventObj(tr, n) == eventObj(tr, e) {
				evs[i].Retried = true
				break
			}
		}
	}
}

// priors fills Event.Prior from the replayed schedule: for each event,
// every write of its object from the pattern's first step up to it; and
// Event.Looks, its goroutine's reads of the object over those steps, and
// Event.Untouched, no write of the object at any step before it.
func priors(f *Finding, evs []depend.Event) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	first := slices.Min(s.Anomaly)
	for i := range evs {
		at := s.Anomaly[i]
		if at >= len(s.Steps) {
			continue
		}
		evs[i].Prior, evs[i].Looks = []depend.Touch{}, []depend.Touch{}
		e := s.Steps[at]
		for st := first; st < at; st++ {
			b := s.Steps[st]
			if b.Obj != e.Obj {
				continue
			}
			if writes(b.Op) {
				evs[i].Prior = append(evs[i].Prior, depend.Touch{Step: st, Site: b.Site, G: b.G})
			} else if b.G == e.G && b.Op == trace.Read {
				evs[i].Looks = append(evs[i].Looks, depend.Touch{Step: st, Site: b.Site, G: b.G})
			}
		}
		evs[i].Untouched = e.Obj != ""
		for st := 0; st < at && evs[i].Untouched; st++ {
			if b := s.Steps[st]; b.Obj == e.Obj && writes(b.Op) {
				evs[i].Untouched = false
			}
		}
	}
}

// overwrites fills Event.Overwrite from the replayed schedule: for a
// read (a load, or a compare-and-swap that swapped), the step of its
// goroutine's atomic store or read-modify-write of the same object when
// that is the first write of the object after the read, up to the
// pattern's last step. An atomic's write replaces its whole value (a
// sync.Map's events are per key), so the value the read saw is gone,
// replaced by the unit's own. A plain write may be one key of a whole
// map, and another goroutine's write first leaves the read stale
// already: neither counts.
func overwrites(f *Finding, evs []depend.Event) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	last := slices.Max(s.Anomaly)
	for i := range evs {
		if !evs[i].Read {
			continue
		}
		a := s.Steps[s.Anomaly[i]]
		for st := s.Anomaly[i] + 1; st <= last && st < len(s.Steps); st++ {
			b := s.Steps[st]
			if b.Obj != a.Obj || !writes(b.Op) {
				continue
			}
			if b.G == a.G && (b.Op == trace.AtomicStore || b.Op == trace.AtomicRMW) {
				evs[i].Overwrite = st
			}
			break
		}
	}
}

// afters fills Event.After from the replayed schedule: the sites of a
// read's goroutine's steps after it, up to the unit's next event of the
// pattern (or the schedule's end). They tell the path the unit took from
// the read: which way a test of its value went. It fills Event.Step, and
// a read's Event.Writes: every other goroutine's write of the read's
// object from the pattern's first step to its last, the pattern's own
// among them, each with the test it adds under (guardRead); and
// Event.Stored, the sites of every write from the earliest of those
// steps and tests to the last.
func afters(f *Finding, evs []depend.Event) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	p := f.Anomaly.Pattern
	first, last := len(s.Steps), -1
	for i := range evs {
		evs[i].Step = s.Anomaly[i]
		first, last = min(first, s.Anomaly[i]), max(last, s.Anomaly[i])
	}
	for i := range evs {
		if !evs[i].Read || evs[i].Write {
			continue
		}
		end := len(s.Steps)
		for k := range evs {
			if k != i && p.T[k] == p.T[i] && p.AR[k] == p.AR[i] && s.Anomaly[k] > s.Anomaly[i] && s.Anomaly[k] < end {
				end = s.Anomaly[k]
			}
		}
		a := s.Steps[s.Anomaly[i]]
		for st := s.Anomaly[i] + 1; st < end; st++ {
			if b := s.Steps[st]; b.G == a.G && b.Site != "" {
				evs[i].After = append(evs[i].After, b.Site)
			}
		}
		evs[i].Writes = []depend.Touch{}
		var rd *objReads // gathered at the first other goroutine's write
		lo := first
		for st := first; st <= last && st < len(s.Steps); st++ {
			if b := s.Steps[st]; b.G != a.G && b.Obj == a.Obj && writes(b.Op) {
				t := depend.Touch{Step: st, Site: b.Site, G: b.G}
				if g := guardRead(s.Steps, st); g >= 0 {
					t.Guard = s.Steps[g].Site
					lo = min(lo, g)
				}
				if rd == nil {
					r := readsOf(s.Steps, a.Obj, last)
					rd = &r
				}
				t.Blind = rd.blind(b.G, st)
				evs[i].Writes = append(evs[i].Writes, t)
			}
		}
		stored := map[string]bool{}
		evs[i].Stored = []string{}
		for st := lo; st <= last && st < len(s.Steps); st++ {
			if b := s.Steps[st]; writes(b.Op) && !stored[b.Site] {
				stored[b.Site] = true
				evs[i].Stored = append(evs[i].Stored, b.Site)
			}
		}
	}
}

// objReads are the reads of one object in a schedule up to a step:
// each goroutine's first, and the last by anyone (depend.Touch.Blind).
type objReads struct {
	first map[string]int
	last  int
}

// readsOf gathers the reads of obj in steps up to step last, in one pass.
func readsOf(steps []trace.Step, obj string, last int) objReads {
	r := objReads{first: map[string]int{}, last: -1}
	for st := 0; st <= last && st < len(steps); st++ {
		if c := steps[st]; c.Obj == obj && reads(c.Op) {
			if _, ok := r.first[c.G]; !ok {
				r.first[c.G] = st
			}
			r.last = st
		}
	}
	return r
}

// blind reports whether goroutine g's write at step w is blind: g read
// the object at no step before w, and no goroutine read it after w up
// to the last step gathered. Such a write (an unconditional delete) was
// decided by nothing g read of the object, and nothing read what it left
// before the pattern's end.
func (r objReads) blind(g string, w int) bool {
	if f, ok := r.first[g]; ok && f < w {
		return false
	}
	return r.last <= w
}

func reads(op trace.Op) bool {
	return op == trace.Read || op == trace.AtomicLoad || op == trace.AtomicRMW
}

func writes(op trace.Op) bool {
	return op == trace.Write || op == trace.AtomicStore || op == trace.AtomicRMW
}

// guardRead returns the step of the last read of step w's object by
// w's goroutine before w (other than the read of w's own x++), when no
// goroutine wrote the object between (the test under which w adds, in
// one critical section or not); else -1. It looks back a bounded
// stretch.
func guardRead(steps []trace.Step, w int) int {
	b := steps[w]
	for st := w - 1; st >= 0 && st >= w-100000; st-- {
		c := steps[st]
		if c.Obj != b.Obj {
			continue
		}
		if c.G == b.G && (c.Op == trace.Read || c.Op == trace.AtomicLoad) {
			if c.Site == b.Site {
				continue // the read of w's own x++
			}
			return st
		}
		if writes(c.Op) {
			return -1
		}
	}
	return -1
}

// claims fills Event.Claimed from the replayed schedule: a read that the
// unit's goroutine followed with a write of the same object before any
// other unit's event of the pattern came is half of one read-modify-write
// (a check and its reservation in one critical section: redigo's
// GetContext checks `p.active >= p.MaxActive` and does `p.active++`
// under the same lock). What it read is the value its own write
// replaced, not a snapshot another goroutine can make stale: the others'
// writes fall after that write, between it and the unit's later events.
// It also fills Event.Seen: the variables of the unit's later reads that
// the unit read right after i too, before the others' events.
func claims(f *Finding, evs []depend.Event) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	p := f.Anomaly.Pattern
	for i := range evs {
		if !evs[i].Read || evs[i].Write {
			continue
		}
		first := -1 // the first other unit's event after i, in step order
		for k := range evs {
			if p.T[k] == p.T[i] && p.AR[k] == p.AR[i] || s.Anomaly[k] <= s.Anomaly[i] {
				continue
			}
			if first < 0 || s.Anomaly[k] < first {
				first = s.Anomaly[k]
			}
		}
		if first < 0 {
			continue
		}
		a := s.Steps[s.Anomaly[i]]
		// Only within the critical section a was read in: a lock the
		// goroutine holds at a, and no unlock of its own before the
		// write. Without one (a map's read and write of two keys, one
		// location as a whole) or across an unlock (a sweep that
		// unlocks for a callback, then deletes), the others' writes can
		// fall between the read and the write.
		end := first
		for st := s.Anomaly[i] + 1; st < first && st < len(s.Steps); st++ {
			if b := s.Steps[st]; b.G == a.G && (b.Op == trace.Unlock || b.Op == trace.RUnlock) {
				end = st
				break
			}
		}
		if !holdsLock(s.Steps, s.Anomaly[i]) {
			end = -1
		}
		for st := s.Anomaly[i] + 1; st < end && st < len(s.Steps); st++ {
			if b := s.Steps[st]; b.G == a.G && b.Obj == a.Obj && (b.Op == trace.Write || b.Op == trace.AtomicStore || b.Op == trace.AtomicRMW) {
				evs[i].Claimed = true
				break
			}
		}
		// The unit's later reads of another variable that it also
		// read right after i, in i's critical section: i's snapshot
		// held that variable, and the later read checks it again.
		for j := i + 1; j < len(evs); j++ {
			if !evs[j].Read || evs[j].Var == evs[i].Var || p.T[j] != p.T[i] || p.AR[j] != p.AR[i] {
				continue
			}
			bj := s.Steps[s.Anomaly[j]]
			for st := s.Anomaly[i] + 1; st < end && st < len(s.Steps); st++ {
				if b := s.Steps[st]; b.G == a.G && b.Obj == bj.Obj && (b.Op == trace.Read || b.Op == trace.AtomicLoad || b.Op == trace.AtomicRMW) {
					evs[i].Seen = append(evs[i].Seen, evs[j].Var)
					break
				}
			}
		}
	}
}

// rereads fills Event.Reread from the replayed schedule: for two events
// i < j of one unit with another unit's events between, whether the
// unit's goroutine read i's object again at i's site (the same op) after
// the last of those and before j. The next iteration of a loop does: a
// range over a map reads the map again for each key, so the key a later
// lookup uses was read after the other goroutine's write, not at the
// event the pattern starts with.
func rereads(f *Finding, evs []depend.Event) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	p := f.Anomaly.Pattern
	same := func(i, k int) bool { return p.T[k] == p.T[i] && p.AR[k] == p.AR[i] }
	for i := range evs {
		if !evs[i].Read {
			continue
		}
		a := s.Steps[s.Anomaly[i]]
		last := -1
		for j := i + 1; j < len(evs); j++ {
			if !same(i, j) {
				last = max(last, s.Anomaly[j])
				continue
			}
			if last < 0 {
				continue
			}
			for st := last + 1; st < s.Anomaly[j] && st < len(s.Steps); st++ {
				if b := s.Steps[st]; b.G == a.G && b.Op == a.Op && b.Site == a.Site && b.Obj == a.Obj {
					evs[i].Reread = append(evs[i].Reread, j)
					break
				}
			}
		}
	}
}

// group gives the atomicity and atomic-set violations of a package that
// stand for one bug one lead: the findings of one test whose replays
// failed, panicked or hung at the same place (one effect), the
// violations whose dependence joins the same two sites, those whose
// check two calls of one method outran by the same write (outrunKey: a
// method's check-then-act seen from the checking call and from the
// writing one), and those of one test at the same sites (sitesKey); a finding whose controls withdrew
// its effect joins one whose effect is its replay's failure
// (failedAlike). Findings that
// share any of these are one bug, and so, transitively, are those that share
// one with a finding of that bug: each bug has exactly one lead, the
// only one of its findings reported by default (a finding that led its
// effect's group but followed another's in its site pair's would leave
// its effect's group with a lead never reported). The others get the
// lead's site in Finding.Lead and are shown only with -v; the lead
// counts them in Finding.Grouped, which its message says. A cache's
// check-then-act whose failing test backs a dozen atomic-set violations,
// each pairing the hit counter with another field, is one report. So
// are the sets whose leads a test reports at one line for their
// dependence alone (below). The lead is the violation with the fewest events (an atomicity violation
// before an atomic-set one), then one of a pattern that is not acting
// (another goroutine's write inside the unit says more than its check:
// av/RWW before av/RRW), then one whose dependence holds (judged for
// its report or, beside an effect, for its pair: see dependsAlways),
// then the first in the source, then, at one site, one with an effect:
// not the first found, and not the one with an effect before one with a
// dependence only, so that a member whose replay showed its effect in one
// run and not in another does not change where the bug is reported.
func group(fs []Finding) {
	better := func(a, b *Finding) bool {
		if x, y := a.Anomaly.Pattern.Order, b.Anomaly.Pattern.Order; x != y {
			// An order violation whose panic another finding shows
			// too is that one's consequence: the other leads.
			return y
		}
		if n, m := len(a.Anomaly.Events), len(b.Anomaly.Events); n != m {
			return n < m
		}
		if x, y := a.Anomaly.Pattern.Acting, b.Anomaly.Pattern.Acting; x != y {
			return y
		}
		if x, y := a.dependsAlways(), b.dependsAlways(); x != y {
			return x
		}
		sa, errA := trace.ParseSite(a.Anomaly.Sites[0])
		sb, errB := trace.ParseSite(b.Anomaly.Sites[0])
		if errA == nil && errB == nil && sa != sb {
			return sa.Less(sb)
		}
		if x, y := a.Effect(), b.Effect(); x != y {
			// At one site, the one whose replay showed the effect
			// says what the bug does (jigsaw.go:36: the av/RWW
			// whose replay panics, not its sibling's dependence
			// alone); the headline's place does not change.
			return x
		}
		if a.Anomaly.Key != b.Anomaly.Key {
			return a.Anomaly.Key < b.Anomaly.Key
		}
		// The same sites and accesses under two patterns (a user's
		// pattern file may repeat a built-in shape): the kind decides,
		// not which replay came first.
		if x, y := kindRank(a.Anomaly.Pattern.Kind), kindRank(b.Anomaly.Pattern.Kind); x != y {
			return x < y
		}
		return a.Anomaly.Pattern.ID() < b.Anomaly.Pattern.ID()
	}
	// Union-find over the findings: one set per bug.
	parent := make([]int, len(fs))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	first := map[string]int{} // a key's first finding
	grouped := make([]bool, len(fs))
	for i := range fs {
		if fs[i].Lead != "" {
			continue // another instance of its combination leads (pickInstances)
		}
		for _, k := range groupKeys(&fs[i]) {
			grouped[i] = true
			if j, ok := first[k]; ok {
				parent[find(i)] = find(j)
			} else {
				first[k] = i
			}
		}
	}
	// A finding reported otherwise (its dependence) whose replay failed
	// as one with the effect did, its controls having withdrawn its own
	// effect, joins that effect's set: the same failure of the same test
	// (see failedAlike). retryloop: the av/WWR at retry.go:41 failed
	// TestShared as its siblings did ("two failures tripped the breaker
	// 2 times"), but its alone repeat passed in 1 of 74 runs, and its
	// stale read-back was then a second report beside the effect's at :32.
	shown := map[string]int{} // an effect key and failure text → a finding with that effect
	for i := range fs {
		if grouped[i] && fs[i].Effect() {
			if k, ok := failedAs(&fs[i]); ok {
				if _, seen := shown[k]; !seen {
					shown[k] = i
				}
			}
		}
	}
	for i := range fs {
		if k, ok := failedAlike(&fs[i]); ok && grouped[i] {
			if j, ok := shown[k]; ok {
				parent[find(i)] = find(j)
			}
		}
	}
	leads := func() map[int]int {
		lead := map[int]int{} // a set's root → its lead
		for i := range fs {
			if !grouped[i] {
				continue
			}
			r := find(i)
			if j, ok := lead[r]; !ok || better(&fs[i], &fs[j]) {
				lead[r] = i
			}
		}
		return lead
	}
	lead := leads()
	// Sets whose leads a test reports at one line for their dependence
	// alone are one diagnostic as the user reads it (pion's
	// duplication_filter.go:299 asv: four dependences of
	// TestDuplicationFilterBucketCoalescing, each through another read of
	// the router's queue, were four reports at one line). Leads only: a
	// member at the line of another set's lead does not join them
	// (airline's asvs at airline.go:15, one joined by its lines to the
	// av at :18, one reported at :15).
	atLine := map[string]int{}
	merged := false
	for r, j := range lead {
		if fs[j].Effect() {
			continue
		}
		k := fs[j].Package + " " + fs[j].Test + " " + lineOf(fs[j].Anomaly.Sites[0])
		if r0, ok := atLine[k]; ok {
			parent[find(r)] = find(r0)
			merged = true
		} else {
			atLine[k] = r
		}
	}
	if merged {
		lead = leads()
	}
	for i := range fs {
		if !grouped[i] {
			continue
		}
		if j := lead[find(i)]; j != i {
			fs[i].Lead = fs[j].Anomaly.Sites[0]
			fs[j].Grouped++
		}
	}
}

// dependsAlways reports whether a finding's dependence holds, judged for
// its report (needsJudging) or, its replay having failed, for its pair
// (pairForGrouping): such a finding is reported whether or not its
// replay's effect shows in a run, so a group it leads has the same lead
// in every run that reproduces it. A finding reported only for its
// effect drops out of the report in the runs where the controls withdraw
// that effect (retryloop's av/RWR at retry.go:32:7, 41:4, 41:4: 13 of 74
// runs of session 38), and another member led in its place, with
// another message.
func (f *Finding) dependsAlways() bool {
	return f.dependPair[0] != ""
}

// groupKeys are what ties a finding to the others of its bug (see group):
// its effect (package, test and where it failed), its dependence's two
// lines and the write that outran its check (outrunKey); none for a finding that is not an atomicity or atomic-set
// violation reported by default. A reproduced order violation has its
// panic's effect key, and never leads a set with another kind in it
// (group's better): the interleaving that panics at the same place says
// more.
func groupKeys(f *Finding) []string {
	p := f.Anomaly.Pattern
	if p.Order && f.Reproduced() {
		// Its panic only: it has no dependence.
		return []string{"effect " + f.Package + " " + f.Test + " " + effectKey(f.Verdict.Consequence)}
	}
	if !f.Reproduced() || p.Adjacent || p.Lock || p.Leak || p.Cond || p.WG || p.Relock || p.Order || f.WithoutEffect() {
		return nil
	}
	var ks []string
	if f.Effect() {
		ks = append(ks, "effect "+f.Package+" "+f.Test+" "+effectKey(f.Verdict.Consequence))
	}
	if f.dependPair[0] != "" {
		ks = append(ks, "pair "+f.Package+" "+lineOf(f.dependPair[0])+" "+lineOf(f.dependPair[1]))
		if k, ok := outrunKey(f); ok {
			ks = append(ks, k)
		}
	}
	if len(ks) > 0 {
		ks = append(ks, sitesKey(f))
		ks = append(ks, unlockedKeys(f)...)
	}
	return ks
}

// outrunKey ties the views of one method's check-then-act that two
// calls of it race through: the check, a read of variable V at site R
// whose value decides the call's later access (the dependence's first
// site), falls before another call's write of V at site W in the same
// method M, so the check did not count that call's write. Seen from the
// checking call, the write falls inside its unit (lockfree's stack.go:98
// av: Push's `Full()` read at :98 decides its `size.Add(1)` at :47, and
// another Push's add at :47 falls between); seen from the writing call,
// the check falls inside its unit, between its CAS and its add
// (stack.go:46 asv-10: Push's CAS at :46, another Push's `Full()` at :98
// and its head read at :44, then the add at :47), a dependence whose pair
// (:98, :44) is not the av's (:98, :47). Both are R before W of one
// variable, R deciding a call of M and W made by a call of M: one
// non-atomic check-then-act in M, which one fix (making M's check and its
// write one step) removes. The key is the package, M (the declaration
// site of the innermost method activation that runs both of the
// dependence's sites), R's and W's lines and V's name. Not tied: a write
// at W by another method (a Pop's add at :64 inside the window: another
// method's unit, maybe another bug), another read deciding (a separate
// check), or another method deciding with the same helper's read (each
// caller's check-then-act is its own). No key when the events have no
// method activations (code outside methods) or the dependence starts at a
// write (a stale read-back or an intermediate state).
func outrunKey(f *Finding) (string, bool) {
	a := f.Anomaly
	p := a.Pattern
	n := len(a.Sites)
	if len(a.Frames) != n || len(f.Objects) != n || len(p.T) != n || len(p.AT) != n {
		return "", false
	}
	r := -1
	for k, s := range a.Sites {
		if s == f.dependPair[0] && p.AT[k] == pattern.R {
			r = k
			break
		}
	}
	if r < 0 {
		return "", false
	}
	// The decided access: the same goroutine's, at the pair's other site,
	// after the read if there is one there.
	d := -1
	for k, s := range a.Sites {
		if k != r && s == f.dependPair[1] && p.T[k] == p.T[r] && (d < 0 || d < r && k > r) {
			d = k
		}
	}
	if d < 0 {
		return "", false
	}
	m := ""
	for i := len(a.Frames[r]) - 1; i >= 0 && m == ""; i-- {
		for _, fr := range a.Frames[d] {
			if fr.Begin == a.Frames[r][i].Begin {
				m = fr.Site
				break
			}
		}
	}
	if m == "" {
		return "", false
	}
	name := f.Objects[r]
	if k := strings.LastIndexByte(name, '#'); k > 0 {
		name = name[:k]
	}
	writes := func(k int) bool {
		if p.AT[k] == pattern.W {
			return true
		}
		// A read-modify-write that a pattern takes as its read (a
		// failed compare-and-swap is recorded as a load).
		s := f.Schedule
		return s != nil && len(s.Anomaly) == n && s.Anomaly[k] >= 0 && s.Anomaly[k] < len(s.Steps) && s.Steps[s.Anomaly[k]].Op == trace.AtomicRMW
	}
	for w := r + 1; w < n; w++ {
		if p.T[w] == p.T[r] || !writes(w) || f.Objects[w] != f.Objects[r] {
			continue
		}
		if slices.ContainsFunc(a.Frames[w], func(fr predict.Frame) bool { return fr.Site == m }) {
			return fmt.Sprintf("outrun %s %s %s %s %q", f.Package, m, lineOf(a.Sites[r]), lineOf(a.Sites[w]), name), true
		}
	}
	return "", false
}

// unlockedKeys tie the findings of one test whose interleaving exists
// only because the same access holds no lock: two goroutines, one of
// whose events all fall in one critical section of a lock L (held from
// its first event to its last, never released between), while the
// other's events hold no lock at all. Such an interleaving is the
// unlocked accesses' doing: had they held L, none of them could fall
// inside that critical section, nor could the locked side's access fall
// between them, were they one critical section too. A key for each
// unlocked site, with L and the objects: a finding whose unlocked side
// reads at one site and writes at another is tied to one that shows only
// the write (bufwriter: Write's unlocked fast path, its read of the fill
// level at :23 and write at :26, with Flush's write at :53 between, and
// Flush's locked check at :49 with Write's write at :26 between, are one
// bug, the fast path's missing lock). shop: Deliver's unlocked
// `s.stock += n` (shop.go:29) falls inside Buy's locked check and debit
// (av/RWW at 19:7, 29:4, 22:4, whose replay fails the test), and Buy's
// debit falls inside Deliver's read and write (av/RWW at 29:4, 22:4,
// 29:4): in 1 of 7 runs of session 38 the latter's replay passed and
// its dependence was a second report of that one missing lock. A locked
// side split across two critical sections (a check-then-act that a
// locked writer breaks as well) gets no key: it is a bug of its own.
// Residual: a fix that locks the unlocked accesses one statement at a
// time removes some of the findings and not others.
func unlockedKeys(f *Finding) []string {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(f.Anomaly.Events) || len(s.Anomaly) == 0 {
		return nil
	}
	byG := map[string][]int{} // a goroutine's anomaly steps, in step order
	var gs []string
	for _, i := range s.Anomaly {
		if i < 0 || i >= len(s.Steps) {
			return nil
		}
		g := s.Steps[i].G
		if _, ok := byG[g]; !ok {
			gs = append(gs, g)
		}
		byG[g] = append(byG[g], i)
	}
	if len(gs) != 2 {
		return nil
	}
	for _, g := range gs {
		slices.Sort(byG[g])
	}
	locked, free := "", ""
	for k, g := range gs {
		is := byG[g]
		if l, ok := oneSection(s.Steps, g, is[0], is[len(is)-1]); ok {
			locked = l
			continue
		}
		if slices.ContainsFunc(is, func(i int) bool { return len(heldAt(s.Steps, g, i)) > 0 }) {
			return nil
		}
		free = gs[k]
	}
	if locked == "" || free == "" {
		return nil
	}
	var ks []string
	for _, i := range byG[free] {
		k := fmt.Sprintf("unlocked %s %s %s %q %q", f.Package, f.Test, locked, s.Steps[i].Site, f.ObjectNames())
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return ks
}

// heldAt returns the locks goroutine g holds at step at of steps, by its
// lock operations from the schedule's start.
func heldAt(steps []trace.Step, g string, at int) []string {
	var held []string
	for _, b := range steps[:at] {
		if b.G != g {
			continue
		}
		switch b.Op {
		case trace.Lock, trace.RLock:
			held = append(held, b.Obj)
		case trace.Unlock, trace.RUnlock:
			if k := slices.Index(held, b.Obj); k >= 0 {
				held = slices.Delete(held, k, k+1)
			}
		}
	}
	return held
}

// oneSection returns a lock that goroutine g holds (Lock, not RLock) at
// step from and does not release before step to: steps from..to of g are
// one critical section of it.
func oneSection(steps []trace.Step, g string, from, to int) (string, bool) {
	var l string
	for st := from - 1; st >= 0 && l == ""; st-- {
		switch b := steps[st]; {
		case b.G != g:
		case b.Op == trace.Lock:
			l = b.Obj
		case b.Op == trace.Unlock || b.Op == trace.RUnlock || b.Op == trace.RLock:
			return "", false
		}
	}
	if l == "" || !slices.Contains(heldAt(steps, g, from), l) {
		return "", false
	}
	for st := from + 1; st < to; st++ {
		if b := steps[st]; b.G == g && (b.Op == trace.Unlock || b.Op == trace.RUnlock) && b.Obj == l {
			return "", false
		}
	}
	return l, true
}

// sitesKey ties the findings of one test whose events are the same
// accesses interleaved the same way: the same sites, columns and all, of
// the same objects, in the same goroutines and units (the pattern's T,
// AR and SV), whatever the pattern calls them. retryloop's av/RWR and
// av/WWR at retry.go:41:4, 41:4, 45:7 are another sender's b.recent++
// between this one's and its read-back, told by the read or the write of
// the unit's own ++ (one site): the RWR's replay failed the test, and the
// WWR's passed in 1 of 74 runs (the failure needs the other sender's
// read-back before this one's Success, which the schedule leaves to the
// free run), so its stale read-back was a second report beside the
// effect's. Same input, same output: which replay shows the effect must
// not decide whether they are one bug.
func sitesKey(f *Finding) string {
	p := f.Anomaly.Pattern
	return fmt.Sprintf("sites %s %s %q %v %v %v %q", f.Package, f.Test, f.Anomaly.Sites, p.T, p.AR, p.SV, f.ObjectNames())
}

// failedAs is what tells a failing replay's failure from another's for
// failedAlike: its effect key (package, test, where it failed) and its
// text without numbers; false for a replay that did not fail, panic or
// hang on its own (Effect, but for the controls).
func failedAs(f *Finding) (string, bool) {
	v := f.Verdict
	p := f.Anomaly.Pattern
	if p == nil || p.Order || f.Blocking() || v.Consequence == "" || v.Passed && !v.Panicked || v.AsBaseline || v.Unended || v.Detour != "" || v.Bubble {
		return "", false
	}
	return "effect " + f.Package + " " + f.Test + " " + effectKey(v.Consequence) + " " + digits.ReplaceAllString(v.Consequence, "#"), true
}

// failedAlike is failedAs for a finding whose controls withdrew its
// effect (Control): its replay failed all the same, and group ties it to
// a finding whose effect is that failure. Its controls only say that its
// own interleaving is not shown to be the failure's cause; the replay
// still ran into the failure, which one with an effect shows is that
// bug's. Whether a control withdraws the effect depends on the run (a
// repeat's timing), its dependence does not, so without this the
// finding's bug is one report or two as the controls fall. It only
// joins: two such findings with no effect behind them stay apart (a
// timing failure that every replay of a test shows, go-quartz's, ties
// nothing). Residual, as for the effect's key itself: a distinct bug
// whose replay ran into another bug's failure is counted with it.
func failedAlike(f *Finding) (string, bool) {
	if f.Control == "" || f.Control == unitWaits || f.Effect() {
		return "", false
	}
	return failedAs(f)
}

// lineOf drops the column of a "path:line:col" site: the file and line a
// message names it by (a path may hold colons: trace.ParseSite). Two reads on one line (`pq.items[0]` reads the slice, then the
// element) deciding one write are one dependence as the user reads it
// (ttlcache v2's root() at priority_queue.go:26, columns 12 and 17, drew
// two reports whose messages were the same).
func lineOf(site string) string {
	s, err := trace.ParseSite(site)
	if err != nil {
		return site
	}
	return s.Path + ":" + strconv.Itoa(s.Line)
}

// kindRank orders the kinds a group's lead is taken from: an atomicity
// violation before an atomic-set one, then any other kind.
func kindRank(kind string) int {
	switch kind {
	case "av":
		return 0
	case "asv":
		return 1
	}
	return 2
}

// effectKey is what tells one failure from another: where the test failed
// or panicked (the first file:line of the consequence), else its text
// without numbers (counts and addresses vary from replay to replay).
func effectKey(c string) string {
	if m := failPlace.FindString(c); m != "" {
		return m
	}
	return digits.ReplaceAllString(c, "#")
}

var (
	failPlace = regexp.MustCompile(`[\w.-]+\.go:\d+`)
	digits    = regexp.MustCompile(`\d+`)
)

// holdsLock reports whether the goroutine of step at holds a lock there:
// its last lock operation before it is a Lock or RLock.
func holdsLock(steps []trace.Step, at int) bool {
	g := steps[at].G
	for st := at - 1; st >= 0; st-- {
		switch b := steps[st]; {
		case b.G != g:
		case b.Op == trace.Lock || b.Op == trace.RLock:
			return true
		case b.Op == trace.Unlock || b.Op == trace.RUnlock:
			return false
		}
	}
	return false
}
