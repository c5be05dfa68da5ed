package check

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
)

// doom is what a replay that deadlocked outside recorded operations
// showed: with the steps before the stuck one run (done: how many steps of
// each goroutine), goroutine g, waiting outside recorded operations (not
// started yet, by uninstrumented code; or blocked in uninstrumented code),
// did not reach its step n+1 (n of its steps before). What it waits for
// can come only from uninstrumented code set off by what ran (a server
// starts a handler for a request, a client gets the response a handler
// writes), and running fewer of those steps sets off no more. So another
// schedule of the same trace that reaches g's step n+1 with at most as
// many steps of every goroutine run would deadlock the same way. On
// TestNoRaceIOHttp every prediction runs the handler before its request,
// or the client on before the handler answered: 46 replays of about
// 190 ms, all deadlocks. Dooms apply only to later items of the queue, so
// what is replayed does not depend on timing.
//
// When g had not started at all (Verdict.Unstarted), no root (a goroutine
// without a recorded fork) that had not started then (started: the ones
// that had, Verdict.Roots) could start either, every goroutine waiting:
// a root is started by uninstrumented code, which only what ran sets off.
// So a schedule that needs the first step of any such root with at most
// done run deadlocks too. That is the prediction moving a library's
// worker (conc's pool workers, started by the pool's goroutine outside
// instrumented code) before its creator's events: tried once per creator
// position rather than once per worker and anomaly. With the anomaly's
// steps all after it (anomalyFrom), in the failed schedule and the other:
// a goroutine past its part of the anomaly that takes another path runs
// free, and may then do more than its steps.
//
// When g had started and blocked outside recorded operations (a select on
// a timer, a read from a connection), what wakes it depends on the values
// the steps before wrote, not only on how many ran: another order of as
// many steps may arm another timer or send another request (ttlcache's
// OnEviction test: one such deadlock kept 11 predictions of the test from
// being replayed). Such a doom (strict) covers only the schedules that
// begin with the same steps up to the stuck one, in the same order, and
// give it to g: those replay as the failed one did up to there.
type doom struct {
	from    int // the item whose replay showed it
	g       string
	n       int
	done    map[string]int
	started map[string]bool // with Unstarted: the roots that had started
	// strict: g had started (not Unstarted); prefix sums the text of the
	// steps before the stuck one, k of them.
	strict bool
	prefix [sha256.Size]byte
	k      int
}

// newDoom reads a doom from a deadlock verdict of prediction p, if it is
// one.
func newDoom(from int, p prediction, v replay.Verdict) (doom, bool) {
	if v.Verdict != replay.Deadlock || !v.Outside || v.Step < 1 || v.Step > p.len() {
		return doom{}, false
	}
	d := doom{from: from, done: map[string]int{}}
	k := 0
	p.eachStepG(func(g string) bool {
		if k++; k == v.Step {
			d.g = g
			return false
		}
		d.done[g]++
		return true
	})
	if d.g == "" || trace.IsPreRoot(d.g) {
		// (What wakes a goroutine begun before the recording need not
		// be what ran: a ticker made at init.)
		return doom{}, false
	}
	d.n = d.done[d.g]
	if !v.Unstarted {
		d.strict, d.k = true, v.Step-1
		d.prefix, _ = p.prefixSum(d.k)
	}
	if v.Unstarted && len(v.Roots) > 0 && p.anomalyFrom() >= v.Step-1 {
		d.started = map[string]bool{}
		for _, r := range v.Roots {
			d.started[r] = true
		}
	}
	return d, true
}

// isRoot reports whether goroutine name g is a root's (no recorded fork:
// "g3", not "g1.2").
func isRoot(g string) bool { return !strings.Contains(g, ".") }

// dooms reports whether p's schedule reaches step n+1 of d.g, or (with
// d.started) the first step of a root that had not started, with at most
// d.done steps of every goroutine run.
func (d doom) dooms(p prediction) bool {
	if d.strict {
		sum, next := p.prefixSum(d.k)
		return next == d.g && sum == d.prefix
	}
	run := map[string]int{}
	doomed, at := false, 0
	p.eachStepG(func(g string) bool {
		other := d.started != nil && g != d.g && run[g] == 0 && isRoot(g) && !trace.IsPreRoot(g) && !d.started[g]
		if g == d.g && run[d.g] == d.n || other {
			doomed = true
			for h, k := range run {
				if k > d.done[h] {
					doomed = false
				}
			}
			if other && doomed && p.anomalyFrom() < at {
				doomed = false
			}
			return false
		}
		run[g]++
		at++
		return true
	})
	return doomed
}

// prefixSum returns the sum of the text of p's first k steps and the
// goroutine of step k+1 ("" if there is none).
func (p prediction) prefixSum(k int) (sum [sha256.Size]byte, next string) {
	h := sha256.New()
	n := 0
	p.eachStep(func([]int) {}, func(g, text []byte) bool {
		if n == k {
			next = string(g)
			return false
		}
		h.Write(text)
		h.Write([]byte{'\n'})
		n++
		return true
	})
	h.Sum(sum[:0])
	return sum, next
}

// anomalyFrom returns the index of the anomaly's first step (from 0), -1
// if it cannot be read.
func (p prediction) anomalyFrom() int {
	first := -1
	p.eachStep(func(at []int) {
		for k, i := range at {
			if k == 0 || i < first {
				first = i
			}
		}
	}, func(_, _ []byte) bool { return false })
	return first
}

// doomed reports whether an earlier item's doom covers item i. Each doom
// is tried on an item once (a prediction's steps may have to be read from
// its file).
func (q *replayQueue) doomed(i int) bool {
	it := q.items[i]
	if it.isDoomed {
		return true
	}
	// A strict doom's prefix sums of the untried dooms, read in one pass
	// (as infer's): reading the schedule's first steps once per doom was
	// a sixth of the check's CPU on ratelimit.
	var ks []int
	for _, d := range it.g.dooms[it.doomsTried:] {
		if _, ok := it.sums[d.k]; !ok && d.strict && d.from < i && !slices.Contains(ks, d.k) {
			ks = append(ks, d.k)
		}
	}
	if len(ks) > 0 {
		if it.sums == nil {
			it.sums = map[int]prefixSum{}
		}
		maps.Copy(it.sums, it.p.prefixSums(ks))
	}
	for ; !it.isDoomed && it.doomsTried < len(it.g.dooms); it.doomsTried++ {
		d := it.g.dooms[it.doomsTried]
		if d.from >= i {
			continue
		}
		if d.strict {
			ps := it.sums[d.k]
			it.isDoomed = ps.next == d.g && ps.sum == d.prefix
		} else if d.dooms(it.p) {
			it.isDoomed = true
		}
	}
	return it.isDoomed
}

// failure is what a replay that failed within its schedule's first k
// steps showed (failedWithin): another schedule of the same trace whose
// replay runs the same way up to there (failure.shares) fails there too.
// Only final items (every earlier item of the trace decided) that were
// replayed, and not themselves inferred or doomed, give one, in order, so
// which items are inferred is what replaying them one after the other
// would give, whatever the replays' durations: an item is inferred exactly
// when an earlier item, replayed in the sequential order, failed within
// the steps they share.
type failure struct {
	from     int // the item whose replay failed
	k        int
	sig      prefixSig
	deadlock bool
	// waits: for a deadlock, the step each goroutine waiting at a gate
	// was at, without its object (Verdict.Waiting), by goroutine.
	waits map[string]string
	// re: what another order of its first k steps must share with it
	// (equiv.go); nil if none may.
	re *reorderSig
}

// newFailure reads the failure of item i, replayed with verdict v
// (failedWithin).
func newFailure(i int, p prediction, v replay.Verdict) failure {
	f := failure{from: i, k: v.Step, sig: p.sig(v.Step), deadlock: v.Verdict == replay.Deadlock}
	f.re = newReorderSig(p, v)
	if f.deadlock {
		f.waits = map[string]string{}
		for _, w := range v.Waiting {
			g, st, ok := strings.Cut(w, " waits at ")
			if ok && !strings.Contains(g, " ") && strings.HasPrefix(st, g+" ") {
				f.waits[g] = stepNoObj(st)
			}
		}
	}
	return f
}

// stepNoObj returns a step's text ("g1 read x#1 @a.go:3:4 n=1") without
// its object, as a goroutine waiting at a gate with no step left names
// what it is about to do ("g1 read @a.go:3:4 n=1").
func stepNoObj(text string) string {
	fs := strings.Fields(text)
	if len(fs) < 2 {
		return text
	}
	out := fs[:2:2]
	for _, x := range fs[2:] {
		if strings.HasPrefix(x, "@") || strings.HasPrefix(x, "n=") {
			out = append(out, x)
		}
	}
	return strings.Join(out, " ")
}

// failedWithin reports whether replay verdict v is a failure that the
// schedule's first v.Step steps decide, given what the replay does with
// the steps after them (prefixSig): a deadlock (nothing can move, step
// v.Step cannot come), or a divergence at step v.Step (its goroutine did
// something else there). Replay is deterministic: it grants the turn
// step by step, and up to the failure only those steps had their turn.
// Not counted: a deadlock found by the wall-clock stall bound ("nothing
// moved": code ran outside recorded operations, and a faster run may
// have gone on) unless the retry at four times the bound stalled at the
// same step (Verdict.Stalled), a divergence found at the schedule's end
// about the anomaly's objects, and an interrupted anomaly
// (Verdict.Interrupted: the program ran free after it, and how it ended
// made it Diverged). A confirmed stall is the load-independent verdict
// the retry exists for: a schedule that shares its signature would be
// replayed into the same 2+8 s wait. ulule/limiter's fasthttp test: 88
// schedules sharing their first 2921 steps each stalled there for 18 s,
// hundreds of fasthttp's idle-worker cleaners asleep in time.Sleep
// (busy to the replay: they wake by themselves).
func failedWithin(v replay.Verdict, steps int) bool {
	switch v.Verdict {
	case replay.Deadlock:
		if strings.HasPrefix(v.Message, "nothing moved") && !v.Stalled {
			return false
		}
	case replay.Diverged:
		if v.Interrupted || v.Goroutine == "" || v.Expected == "" {
			return false
		}
	default:
		return false
	}
	return v.Step >= 1 && v.Step <= steps
}

// prefixSig is what decides a replay up to a failure at step k: the
// first k steps; each goroutine's next step after them (a goroutine that
// reaches its gate compares what it does with that step, then waits there
// for its turn; one with no step left waits until the schedule is done,
// but passes the gates of operations replay may omit, and of selects);
// and the anomaly's steps, which change how replay treats a goroutine
// that takes another path (released, diverged, interrupted: rt's turn).
// ok: the schedule has k steps and no anomaly step before step k, so no
// anomaly step ran before the failure (nor was omitted: an anomaly step
// never is); then a goroutine that takes another path is released
// exactly when it owns no anomaly step, and none is interrupted (that
// needs another goroutine's part of the anomaly to have run first), so
// the owners decide.
type prefixSig struct {
	ok     bool
	prefix [sha256.Size]byte
	next   map[string]string
	owners string // goroutines owning anomaly steps, sorted
	// forked: the goroutines forked within the first k steps. A
	// goroutine forked by a later step (or never) cannot begin before a
	// deadlock at step k: its parent waits at a gate before the fork, or
	// is not forked itself (shares).
	forked map[string]bool
}

// sig reads p's prefixSig for a failure at step k (from 1).
func (p prediction) sig(k int) prefixSig { return p.sigOf(k, nil) }

// sigAfter is sig for a prediction whose first k steps are known to sum
// to prefix (prefixSums): they are not hashed again, and their forks are
// not read (shares reads the failure's). infer reads one for every
// prediction whose prefix is a failure's: on go-deadlock, hashing and
// splitting those prefixes again was a quarter of the check's CPU.
func (p prediction) sigAfter(k int, prefix [sha256.Size]byte) prefixSig {
	if sg, ok := p.sigAfterIdx(k, prefix); ok {
		return sg
	}
	return p.sigOf(k, &prefix)
}

func (p prediction) sigOf(k int, known *[sha256.Size]byte) prefixSig {
	var sg prefixSig
	var at []int
	h := sha256.New()
	n := 0
	owners := map[string]bool{}
	sg.next = map[string]string{}
	sg.ok = true
	p.eachStep(func(a []int) {
		at = a
		for _, i := range a {
			if i < k-1 {
				sg.ok = false
			}
		}
	}, func(g, text []byte) bool {
		if !sg.ok {
			return false
		}
		for _, i := range at {
			if i == n && !owners[string(g)] {
				owners[string(g)] = true
			}
		}
		switch {
		case n >= k:
			if _, ok := sg.next[string(g)]; !ok {
				sg.next[string(g)] = string(text)
			}
		case known == nil:
			h.Write(text)
			h.Write([]byte{'\n'})
			if child, ok := forkOf(text); ok {
				if sg.forked == nil {
					sg.forked = map[string]bool{}
				}
				sg.forked[child] = true
			}
		}
		n++
		return true
	})
	sg.finish(h, owners, at, n, k)
	if known != nil {
		sg.prefix = *known
	}
	return sg
}

// forkOf returns the child of a fork step's text ("g1 fork g1.1 @a.go:3
// n=1").
func forkOf(text []byte) (string, bool) {
	_, rest, ok := bytes.Cut(text, []byte(" "))
	if !ok {
		return "", false
	}
	rest, ok = bytes.CutPrefix(rest, []byte("fork "))
	if !ok {
		return "", false
	}
	child, _, _ := bytes.Cut(rest, []byte(" "))
	return string(child), len(child) > 0
}

// prefixSum is the sum of a schedule's first k steps, as prefixSig's
// prefix and prediction.prefixSum's; whether that signature can be ok: the
// schedule has k steps and no anomaly step before step k; and the
// goroutine of step k+1 ("" if there is none), as prediction.prefixSum's.
type prefixSum struct {
	ok   bool
	sum  [sha256.Size]byte
	next string
}

// prefixSums reads p's prefixSum for each k of ks (from 1), in one pass
// over its first max(ks) steps.
func (p prediction) prefixSums(ks []int) map[int]prefixSum {
	if out, ok := p.prefixSumsIdx(ks); ok {
		return out
	}
	return p.prefixSumsText(ks)
}

// prefixSumsText is prefixSums read from p's text.
func (p prediction) prefixSumsText(ks []int) map[int]prefixSum {
	out := make(map[int]prefixSum, len(ks))
	last := slices.Max(ks)
	var at []int
	h := sha256.New()
	n := 0
	take := func(next []byte) {
		if slices.Contains(ks, n) {
			ps := prefixSum{ok: true, next: string(next)}
			for _, i := range at {
				if i < n-1 {
					ps.ok = false
				}
			}
			h.Sum(ps.sum[:0])
			out[n] = ps
		}
	}
	stopped := false
	p.eachStep(func(a []int) { at = a }, func(g, text []byte) bool {
		take(g)
		if n >= last {
			stopped = true
			return false
		}
		h.Write(text)
		h.Write([]byte{'\n'})
		n++
		return true
	})
	if !stopped {
		take(nil) // k is the schedule's length
	}
	for _, k := range ks {
		if _, ok := out[k]; !ok {
			out[k] = prefixSum{} // fewer than k steps
		}
	}
	return out
}

// finish completes a signature read over n steps, of which the first k
// went into h, with anomaly steps at and their owners.
func (sg *prefixSig) finish(h hash.Hash, owners map[string]bool, at []int, n, k int) {
	if n < k || !allOwned(at, n) {
		sg.ok = false
	}
	h.Sum(sg.prefix[:0])
	var names []string
	for g := range owners {
		names = append(names, g)
	}
	sort.Strings(names)
	sg.owners = strings.Join(names, " ")
}

// allOwned reports whether every anomaly index is a step of a schedule of
// n steps (one goroutine may own several).
func allOwned(at []int, n int) bool {
	for _, i := range at {
		if i < 0 || i >= n {
			return false
		}
	}
	return true
}

// shares reports whether a schedule with signature s replays as f's did
// up to its failure (prefixSig), and fails there too. The goroutines with
// a step after the first k are compared: a goroutine whose next step is
// the same in both reaches the same gates, does the same there, and
// waits for its turn, which does not come before the failure.
//
// For a deadlock, s may also give a step after the first k to a goroutine
// that f gives none. In f that goroutine, at quiescence, either waited at
// a gate with no step left (Verdict.Waiting names what it was about to
// do), or was not at any gate (not started, ended, or blocked elsewhere).
// In s it then waits at that same gate when its step is that operation
// (required), or, never reaching a gate after its first steps, never
// compares anything with its step; either way it does no more than in f
// (a gate that lets a goroutine with no step left through, an omittable
// operation's or a select's, holds it for its turn in s). The converse,
// a goroutine with a step in f and none in s, could get further in s, so
// it is not inferred. Nor is a divergence beyond equal next steps: other
// goroutines were still running when it was found.
//
// The anomaly's owners need to be the same only for a divergence: that
// goroutine is released instead when it owns no anomaly step (rt's turn).
// Under a deadlock, a goroutine that takes another path before it was
// released in f, which owns no anomaly step there; in s it is released
// too, or it diverges.
func (f failure) shares(s prefixSig) bool {
	if !f.sig.ok || !s.ok || f.sig.prefix != s.prefix {
		return false
	}
	if !f.deadlock && f.sig.owners != s.owners {
		return false
	}
	// Under a deadlock, a goroutine not forked within the prefix (the
	// same in both) never began, in f or in s: its steps do not matter.
	// ratelimit's TestMaxSlack: 100 replays deadlocked at step 284, in the
	// subtest of its first limiter, each schedule's next steps differing
	// only in the goroutines of a later subtest, where the anomaly was.
	unforked := func(g string) bool { return f.deadlock && !isRoot(g) && !f.sig.forked[g] }
	for g, t := range f.sig.next {
		if s.next[g] != t && !unforked(g) {
			return false
		}
	}
	if !f.deadlock {
		return len(s.next) == len(f.sig.next)
	}
	for g, t := range s.next {
		if _, ok := f.sig.next[g]; ok || unforked(g) {
			continue
		}
		if w, ok := f.waits[g]; ok && w != stepNoObj(t) {
			return false // it would take another path at its gate in s
		}
	}
	return true
}

// infer reports whether an earlier final failure of item i's trace
// (failure) is shared by item i, and notes which (q.mu held). Each
// failure is tried on an item once.
func (q *replayQueue) infer(i int) bool {
	it := q.items[i]
	if it.inferred > 0 {
		return true
	}
	if it.state == pDone && it.v.Verdict == replay.Reproduced {
		return false // replay is the fact (not expected: see failure)
	}
	g := it.g
	// The sums of the prefixes the untried failures end at, all in one
	// pass over the schedule's first steps: a failure whose prefix differs
	// is not shared, and only one whose prefix is the same needs the
	// whole signature (sig reads the schedule to its end). Reading each
	// schedule whole once per failure was a third of the check's CPU on
	// go-deadlock (thousands of predictions of 5,000 to 11,000 steps per
	// trace, dozens of failures).
	var ks []int
	for _, f := range g.fails[it.failsTried:] {
		if _, ok := it.sums[f.k]; !ok && f.from < i && f.sig.ok && !slices.Contains(ks, f.k) {
			ks = append(ks, f.k)
		}
	}
	if len(ks) > 0 {
		if it.sums == nil {
			it.sums = map[int]prefixSum{}
		}
		maps.Copy(it.sums, it.p.prefixSums(ks))
	}
	for ; it.failsTried < len(g.fails); it.failsTried++ {
		f := g.fails[it.failsTried]
		if f.from >= i {
			continue
		}
		if ps := it.sums[f.k]; !f.sig.ok || !ps.ok || ps.sum != f.sig.prefix {
			if q.reorderShares(it, f) {
				it.inferred, it.reordered = f.from+1, true
				return true
			}
			continue // shares needs both signatures ok, with the same prefix
		}
		sg, ok := it.sigs[f.k]
		if !ok {
			sg = it.p.sigAfter(f.k, f.sig.prefix) // (the same as it.sums[f.k].sum)
			if it.sigs == nil {
				it.sigs = map[int]prefixSig{}
			}
			it.sigs[f.k] = sg
		}
		if f.shares(sg) {
			it.inferred = f.from + 1
			return true
		}
	}
	return false
}

// inferredVerdict is the verdict of item j, whose failure item i shares,
// as i's.
func (q *replayQueue) inferredVerdict(j *qItem, i *qItem) replay.Verdict {
	v := j.v
	v.Steps = i.p.len()
	same := "same prefix"
	if i.reordered {
		// Its step numbers are the failed schedule's.
		same = "prefix equivalent (the same steps, independent ones in another order)"
	}
	v.Message = fmt.Sprintf("%s as replay %d, which failed at step %d: %s", same, j.n(), v.Step, v.Message)
	v.Wall, v.Output, v.Trace = 0, "", ""
	return v
}

// Deadlocks alike.
//
// A site combination recorded many times in one trace (a loop's
// iterations, a hundred goroutines running one closure) gives as many
// predictions, each with its own prefix. When the schedule needs an order
// that something outside recorded operations forbids (a semaphore of an
// uninstrumented package that serializes the two accesses, a mock clock
// that a lock holder sleeps on until the test's goroutine advances it),
// every instance deadlocks the same way, each after replaying its own
// prefix: on puddle's TestPoolAcquireWithCancellableContext, 16 instances
// of each of two combinations deadlocked with a goroutine in the
// semaphore's select before its lock @pool.go:368, at 1 to 4 s a replay,
// a third of the package's time. Once alikeRuns instances of a
// combination in a trace deadlocked alike (alikeShape), its later
// instances in that trace are not replayed: the hidden order is the
// program's, not the instance's. A writer waiting in a sync.RWMutex's
// Lock inside code that records no lock (a lock type of the module's
// own, whose Lock records its acquisition when it returns) is such an
// order too: the replay cannot hold it before it gets there, and the
// readers the schedule lets in next queue behind it (go-deadlock's
// TestManyReadersFewWriters: 5 to 7 instances of one combination
// deadlocked so, 0.7 to 1.9 s each). That is symmetry, not proof, so it
// is kept to deadlocks where a goroutine waits outside recorded
// operations, and to replays that touched other objects than predicted at the same
// two anomaly steps (wrongObjectShape), and said in -v (Report.Alike).
const alikeRuns = 2

// AlikeRuns is alikeRuns, for what the CLI says.
const AlikeRuns = alikeRuns

// alikeShape is what two deadlocks of instances of one combination must
// share to be alike: the stuck step's operation and site, and where the
// goroutines not at a gate wait (without goroutine names or occurrence
// counts, which differ between instances); only where the stuck step's
// goroutine waits when that is outside recorded operations
// (Verdict.Outside). ok is false for a verdict that
// is no such deadlock: none where something waits outside recorded
// operations ("only a timer or I/O could still wake", or a lock of sync
// outside recorded operations: lockedOutside), or one found by the stall
// bound (failedWithin).
func alikeShape(p prediction, v replay.Verdict) (string, bool) {
	if v.Verdict == replay.WrongObject {
		return wrongObjectShape(v.Message)
	}
	if v.Verdict != replay.Deadlock || !failedWithin(v, p.len()) || !strings.Contains(v.Message, quietWake) && !lockedOutside(v.Waiting) {
		return "", false
	}
	text := ""
	n := 0
	p.eachStep(func([]int) {}, func(_, t []byte) bool {
		if n++; n == v.Step {
			text = string(t)
			return false
		}
		return true
	})
	fs := strings.Fields(text)
	if len(fs) < 2 {
		return "", false
	}
	shape := fs[1]
	for _, x := range fs[2:] {
		if strings.HasPrefix(x, "@") {
			shape += " " + x
		}
	}
	var waits []string
	for _, w := range v.Waiting {
		if strings.Contains(w, " waits at ") {
			continue // at a gate: its step, which differs between instances
		}
		if v.Outside && !strings.HasPrefix(w, fs[0]+" ") {
			// The stuck step's goroutine waits outside recorded
			// operations itself: where it waits is the shape, whatever
			// the others do (on puddle's TestStress, goroutines in the
			// pool's selects at other lines each time).
			continue
		}
		if rest, ok := strings.CutPrefix(w, "goroutine "); ok {
			if _, after, ok := strings.Cut(rest, ") "); ok {
				w = after // "goroutine 12 (not instrumented) select at …"
			}
		} else if _, after, ok := strings.Cut(w, " "); ok {
			w = after
		}
		if !slices.Contains(waits, w) {
			waits = append(waits, w)
		}
	}
	sort.Strings(waits)
	return shape + " | " + strings.Join(waits, "; "), true
}

// lockedOutside reports whether one of a deadlock's waits (Verdict.Waiting)
// is a goroutine's in a lock of package sync outside recorded operations
// ("g1.1.2 sync.RWMutex.Lock at sync_mutex_go118.go:31"), as rt's dump
// describes it: not at a gate ("… waits at …"), not in a recorded
// operation ("… blocks in …").
func lockedOutside(waits []string) bool {
	for _, w := range waits {
		if strings.Contains(w, " waits at ") || strings.Contains(w, " blocks in ") {
			continue
		}
		if rest, ok := strings.CutPrefix(w, "goroutine "); ok {
			if _, after, ok := strings.Cut(rest, ") "); ok {
				w = "g " + after // "goroutine 12 (not instrumented) sync.Mutex.Lock at …"
			}
		}
		fs := strings.Fields(w)
		if len(fs) < 2 {
			continue
		}
		switch fs[1] {
		case "sync.Mutex.Lock", "sync.RWMutex.Lock", "sync.RWMutex.RLock":
			return true
		}
	}
	return false
}

// wrongObjectShape is what two wrong-object verdicts of instances of one
// combination must share to be alike: the message without step numbers,
// goroutine names, occurrence counts and object numbers, that is the two
// anomaly steps' operations and sites, the objects' types, and how the
// prediction and the replay relate them. An instance's wrong object is
// its schedule's object flow failing rather than chance: the verdict
// stands after wrongObjectRuns runs, of which a map's iteration order
// usually comes out as recorded in one. On logrus's TestEntryLoggerMutationRace
// the search predicted hooksForLevel's read of the map that
// ReplaceHooks's caller is still filling (LevelHooks#100, written at
// entry_test.go:474 before ReplaceHooks publishes it), and each replay,
// run through to the anomaly's last of about 350,000 steps, read the
// previous map: seven instances differing only in their occurrence
// counts, 3 s of replay each, 25 of the package's 40 s. ok is false for a
// message without the anomaly's steps, and for another key of one map
// (keyMismatch): that is a range's random order, which may come out as
// recorded for another instance.
func wrongObjectShape(msg string) (string, bool) {
	if !strings.HasPrefix(msg, "steps ") || strings.HasSuffix(msg, "(another key)") {
		return "", false
	}
	var out []string
	for _, f := range strings.Fields(msg) {
		f = strings.TrimPrefix(f, "(")
		if f == "" || strings.HasPrefix(f, "n=") || isGoroutineName(f) || strings.Trim(f, "0123456789") == "" {
			continue
		}
		if i := strings.LastIndexByte(f, '#'); i > 0 && strings.Trim(strings.TrimRight(f[i+1:], "),"), "0123456789") == "" {
			f = f[:i]
		}
		out = append(out, f)
	}
	return "wrong-object " + strings.Join(out, " "), true
}

// isGoroutineName reports whether f is a goroutine's name in a trace
// ("g1", "g1.1.7.4").
func isGoroutineName(f string) bool {
	if len(f) < 2 || f[0] != 'g' {
		return false
	}
	for _, part := range strings.Split(f[1:], ".") {
		if part == "" || strings.Trim(part, "0123456789") != "" {
			return false
		}
	}
	return true
}

// Wrong objects across combinations.
//
// A wrong-object verdict names two steps of the anomaly (wrongObjectShape:
// their operations and sites, the objects' types, how they relate), not
// the whole combination: TestPurgePool's asv-9 instances on ants (the
// purge goroutine's read of goWorker.lastUsed at worker.go:85 against a
// worker's write at :89, each with a third site of its own) each touched
// the same other worker's field at the same steps, and each ran
// wrongObjectRuns times, a combination of its own; so did the flood
// tests' (TestAntsPool*WaitToGetWorker*, 100,000 to a million steps a
// schedule, up to 25 s a run). An instance of another combination whose
// anomaly shares the two steps' sites, replayed before it in the
// sequential order, that touched other objects the same way after all
// its runs, makes its replay alike run once (prediction.wrongShapes), as
// one of its own combination does (earlierWrongShape). Sound for the
// same reason: the runs again are for chance (a map's range order, which
// a key mismatch, never a shape, names), and a mismatch that stood all
// its runs at those two steps is their object flow, whatever the third
// site. Each instance is still replayed and judged by its own run (one
// that reproduces is reported as before, one that touched other objects
// otherwise runs again as before); nothing is skipped, only the runs
// again for chance.
//
// Deterministic: an item waits to start while an earlier instance (in
// the sequential order) of another combination sharing two sites with
// it is not final (relatedWrongPending), so the shapes it gets do not
// depend on which replay ended first. Only combinations sharing two
// anomaly sites wait for each other: a shape names two anomaly steps,
// whose sites are then in both anomalies.

// indexSites notes the anomaly sites of item it, to be q.items[i], in
// q.bySite (q.mu held).
func (q *replayQueue) indexSites(i int, it *qItem) {
	if q.bySite == nil {
		q.bySite = map[string][]int{}
	}
	sites := it.p.a.Sites
	for k, s := range sites {
		if s != "" && !slices.Contains(sites[:k], s) {
			q.bySite[s] = append(q.bySite[s], i)
		}
	}
}

// twoSitesShared reports whether anomaly sites a and b have two in common,
// counted with their multiplicity (two steps at one site are two), none
// unknown: only then can two wrong-object verdicts of theirs name the
// same two steps' sites.
func twoSitesShared(a, b []string) bool {
	if slices.Contains(a, "") || slices.Contains(b, "") {
		return false
	}
	used := make([]bool, len(b))
	n := 0
	for _, s := range a {
		for k, t := range b {
			if !used[k] && s == t {
				used[k] = true
				n++
				break
			}
		}
	}
	return n >= 2
}

// eachRelated calls f with each item j of another combination than item
// i's whose anomaly shares two sites with i's (twoSitesShared) and that
// the sequential order replays before i (wrongBefore), latest first,
// until f returns false (q.mu held). An item may be passed more than
// once (once per shared site).
func (q *replayQueue) eachRelated(i int, f func(j int) bool) {
	it := q.items[i]
	sites := it.p.a.Sites
	if slices.Contains(sites, "") {
		return
	}
	for k, s := range sites {
		if slices.Contains(sites[:k], s) {
			continue
		}
		js := q.bySite[s]
		for n := len(js) - 1; n >= 0; n-- {
			j := js[n]
			e := q.items[j]
			if e.p.a.Key == it.p.a.Key || !q.wrongBefore(i, j) || !twoSitesShared(sites, e.p.a.Sites) {
				continue
			}
			if !f(j) {
				return
			}
		}
	}
}

// relatedWrongPending reports whether item i is to wait before it starts
// (q.mu held): an instance of another combination sharing two of its
// anomaly's sites that the sequential order replays before it (an
// earlier round's, or its round's and earlier in the queue) is still to
// replay, replaying, or replayed but not final (an earlier replay of its
// trace may yet make it inferred or doomed).
func (q *replayQueue) relatedWrongPending(i int) bool {
	pending := false
	q.eachRelated(i, func(j int) bool {
		e := q.items[j]
		switch {
		case e.state == pOpen, e.state == pNeeded, e.state == pRunning, e.state == pDone && !e.final:
			pending = true
		}
		return !pending
	})
	return pending
}

// relatedWrongShapes is the shapes of the wrong objects that the items of
// eachRelated showed after all their runs, replayed, final, and neither
// inferred nor doomed (q.mu held), in the order of eachRelated.
func (q *replayQueue) relatedWrongShapes(i int) []string {
	var out []string
	q.eachRelated(i, func(j int) bool {
		e := q.items[j]
		if e.state != pDone || !e.final || e.inferred != 0 || q.doomed(j) || e.v.Verdict != replay.WrongObject {
			return true
		}
		if shape, ok := wrongObjectShape(e.v.Message); ok && !slices.Contains(out, shape) {
			out = append(out, shape)
		}
		return true
	})
	return out
}

// alikeOf reports, for item i (q.mu held), whether alikeRuns earlier
// instances of its combination in its trace deadlocked or touched other
// objects alike (alikeShape), as the sequential order has their verdicts
// (an inferred one's is the failure it shares); wait: that cannot be told
// yet, some of them not final.
func (q *replayQueue) alikeOf(i int) (alike, wait bool) {
	it := q.items[i]
	count := map[string]int{}
	done := 0
	for _, j := range q.byKey[it.p.a.Key] {
		if j >= i {
			break
		}
		e := q.items[j]
		if e.g != it.g || (e.state != pDone && e.state != pInferred) {
			continue
		}
		done++
		if !e.final {
			wait = true
			continue
		}
		if e.state == pDone && e.inferred == 0 && e.isDoomed {
			continue
		}
		src := e
		if e.inferred > 0 {
			src = q.items[e.inferred-1]
		}
		if !src.shaped {
			src.shape, src.hasShape = alikeShape(src.p, src.v)
			src.shaped = true
		}
		if src.hasShape {
			if count[src.shape]++; count[src.shape] >= alikeRuns {
				return true, false
			}
		}
	}
	return false, wait && done >= alikeRuns
}
