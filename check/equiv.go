package check

import (
	"bytes"
	"crypto/sha256"
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/replay"
)

// Equivalent prefixes.
//
// Most predictions of one trace differ only in the order of independent
// steps: two goroutines' accesses of different objects, or reads of one
// object, swapped. On progressbar's Add64_Finish driver 96 of 100 replays
// diverged at the same step (Add64's read at progressbar.go:710 after
// Finish's write), each after a prefix of its own order, so the failure
// inference (infer), which needs the same first k steps in the same order,
// inferred none; x/sync's TestGoexitDo: 17 of 27 replays diverged at step
// 32 expecting the same wg-add. Two sequences of the same steps that order
// every pair of dependent steps alike (the same Mazurkiewicz trace) run
// alike under replay: a goroutine's path up to a gate depends on what its
// recorded operations observed, which only dependent steps decide. So a
// divergence at step k is shared by a schedule whose first k steps are
// equivalent to the failed one's (foata.sum), with the same next step per
// goroutine and the same anomaly steps (reorderSig).
//
// Dependent (stepsDependent): two steps of one goroutine; a fork or join
// and the steps of the goroutine it names; two steps on one object unless
// both only read it (Read, AtomicLoad); and a step with no object where
// its operation has one, a Sleep (the replay's virtual clock orders the
// sleeps), or an operation not listed, against every step. Locks, channel
// operations, WaitGroups, Once, Cond and regions on one object are all
// dependent. Code outside recorded operations that shares state between
// two goroutines is not seen; it would make the recorded run's order no
// guide for the prediction either (predict assumes the same relation).

// depStep is what the dependence relation reads of a step.
type depStep struct {
	g, obj string
	op     trace.Op
}

// parseDepStep reads a step's text as a schedule file has it ("g1 read
// x#1 @a.go:3:4 n=1"); object names have no spaces (trace.checkName).
func parseDepStep(text []byte) depStep {
	fs := bytes.Fields(text)
	var d depStep
	if len(fs) < 2 {
		return depStep{g: string(text)} // unknown op: a barrier
	}
	d.g = string(fs[0])
	d.op, _ = trace.ParseOp(string(fs[1]))
	if len(fs) > 2 && !bytes.HasPrefix(fs[2], []byte("@")) && !bytes.HasPrefix(fs[2], []byte("n=")) {
		d.obj = string(fs[2])
	}
	return d
}

// goroutineObj: the step's object is a goroutine (Fork's child, Join's
// goroutine), not memory or a synchronization object.
func (d depStep) goroutineObj() bool { return d.op == trace.Fork || d.op == trace.Join }

// readOnly: two of these on one object commute.
func (d depStep) readOnly() bool { return d.op == trace.Read || d.op == trace.AtomicLoad }

// barrier: dependent on every step.
func (d depStep) barrier() bool {
	switch d.op {
	case trace.Begin, trace.End:
		return false
	case trace.Read, trace.Write, trace.AtomicLoad, trace.AtomicStore, trace.AtomicRMW,
		trace.Lock, trace.Unlock, trace.RLock, trace.RUnlock, trace.Fork, trace.Join,
		trace.Send, trace.Recv, trace.Close, trace.WGAdd, trace.WGDone, trace.WGWait,
		trace.OnceDo, trace.CondWait, trace.CondSignal, trace.CondBroadcast,
		trace.RegionBegin, trace.RegionEnd:
		return d.obj == ""
	}
	return true // Sleep, and any operation not listed
}

// stepsDependent is the dependence relation (see above); the brute-force
// test checks foata.sum against it.
func stepsDependent(a, b depStep) bool {
	switch {
	case a.g == b.g, a.barrier(), b.barrier():
		return true
	case a.goroutineObj() && a.obj == b.g, b.goroutineObj() && b.obj == a.g:
		return true
	case a.goroutineObj() || b.goroutineObj() || a.obj == "" || a.obj != b.obj:
		return false
	}
	return !a.readOnly() || !b.readOnly()
}

// foata assigns each step of a sequence its Foata level: one more than
// the highest level of an earlier step it depends on. Two sequences of
// the same steps are equivalent exactly when every step has the same
// level in both (the levels give the Foata normal form, and each sequence
// is equivalent to its levels' order), so the steps sorted by level, and
// within a level (pairwise independent, so of distinct goroutines) by
// goroutine, name the class.
type foata struct {
	lastG          map[string]int // goroutine → its last step's level
	named          map[string]int // goroutine → the last level of a fork or join naming it
	lastAny, lastW map[string]int // object → the last level of any access, of a non-read
	floor, top     int            // the last barrier's level; the highest level
	steps          []leveled
}

type leveled struct {
	level int
	g     string
	text  string
}

func newFoata() *foata {
	return &foata{lastG: map[string]int{}, named: map[string]int{}, lastAny: map[string]int{}, lastW: map[string]int{}}
}

// add appends a step (its text as a schedule file has it).
func (f *foata) add(text []byte) {
	d := parseDepStep(text)
	lvl := max(f.lastG[d.g], f.named[d.g], f.floor)
	switch {
	case d.barrier():
		lvl = f.top
	case d.goroutineObj():
		lvl = max(lvl, f.lastG[d.obj])
	case d.obj != "" && d.readOnly():
		lvl = max(lvl, f.lastW[d.obj])
	case d.obj != "":
		lvl = max(lvl, f.lastAny[d.obj])
	}
	lvl++
	f.lastG[d.g] = lvl
	switch {
	case d.barrier():
		f.floor = lvl
	case d.goroutineObj():
		f.named[d.obj] = max(f.named[d.obj], lvl)
	case d.obj != "":
		f.lastAny[d.obj] = max(f.lastAny[d.obj], lvl)
		if !d.readOnly() {
			f.lastW[d.obj] = max(f.lastW[d.obj], lvl)
		}
	}
	f.top = max(f.top, lvl)
	f.steps = append(f.steps, leveled{lvl, d.g, string(text)})
}

// sum names the class of the first k steps added (k ≤ the steps added):
// a step's level depends only on the steps before it.
func (f *foata) sum(k int) [sha256.Size]byte {
	s := slices.Clone(f.steps[:k])
	slices.SortFunc(s, func(a, b leveled) int {
		if a.level != b.level {
			return a.level - b.level
		}
		return strings.Compare(a.g, b.g)
	})
	h := sha256.New()
	for _, st := range s {
		h.Write([]byte(st.text))
		h.Write([]byte{'\n'})
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// Another order of a failed replay's first steps.
//
// infer shares a failure at step k only with schedules that begin with
// the same k steps and have no anomaly step among them (prefixSig.ok). A
// reorderSig shares a divergence with schedules whose first k steps are
// equivalent (foata.sum), anomaly steps among them or not. Replay treats a
// goroutine that takes another path by what the schedule says of that
// goroutine, not by where its steps are: it is released when it owns no
// anomaly step at or after its step (rt's doneWithAnomaly), interrupted
// when every other goroutine's anomaly steps ran (othersDone), explored
// after a changed read that is an anomaly step (changedRead), detoured in
// a race (startDetour); else it diverged. So the other schedule must
// have the same anomaly steps among its first k (anom), the same owners
// of the later ones, the same next step per goroutine after the k, and
// then: the failed goroutine owns an anomaly step at or after its
// failure (it diverged, not released, in the failed replay, and the
// anomaly steps are the same); another goroutine owns one after the k,
// which never ran before the failure, so no goroutine was interrupted;
// no race (no detour); and no exploration: the failed replay did not
// explore, and either no anomaly step among the k reads, or the test's
// explorations are used up (maxExplorations), so no replay of it explores
// again. Within those, the failed goroutine reaches its gate having
// observed what it did in the failed replay and takes the same other
// path there, and any goroutine that takes another path first is
// released or diverged too: the other schedule cannot be reproduced.
// Deadlocks are not shared so: a goroutine stuck outside recorded
// operations may wait for a step that the failed schedule ran before
// step k and the other leaves after it.
type reorderSig struct {
	class [sha256.Size]byte
	bag   uint64            // bagSums' of the first k steps
	next  map[string]string // each goroutine's first step after the k
	// anom: each anomaly step, in pattern order: its text if among the
	// first k, else its goroutine.
	anom []string
	// readIn: an anomaly step among the first k reads (an exploration
	// may start after it).
	readIn bool
	// failed: step k's text, the failed goroutine's step (in another
	// order of the k steps, still that goroutine's last among them).
	failed string
}

// reorderable: the patterns whose replays treat a goroutine that takes
// another path only as described above (not races, blocking patterns,
// leaks or order violations, which replay and check judge by more).
func reorderable(p *pattern.Pattern) bool {
	return p != nil && !p.Adjacent && !blocking(p) && !p.Observed && !p.Stolen && !p.Order
}

// newReorderSig reads the reorderSig of p's replay that diverged with v
// (failedWithin), or nil.
func newReorderSig(p prediction, v replay.Verdict) *reorderSig {
	if v.Verdict != replay.Diverged || v.Interrupted || v.Explored || v.Detour != "" || v.Goroutine == "" || !reorderable(p.a.Pattern) {
		return nil
	}
	re := p.reorderView(v.Step)
	if re == nil {
		return nil
	}
	owns, other := false, false
	for _, a := range re.anom {
		g, after := strings.CutPrefix(a, "after ")
		if !after {
			g, _, _ = strings.Cut(strings.TrimPrefix(a, "in "), " ")
		}
		switch {
		case g == v.Goroutine:
			owns = owns || after || a == "in "+re.failed
		case after:
			other = true
		}
	}
	if !owns || !other {
		return nil
	}
	re.bag = p.bagSums([]int{v.Step})[v.Step]
	return re
}

// reorderView reads what a reorderSig compares of p's first k steps; nil
// if p has fewer, or an anomaly step out of range.
func (p prediction) reorderView(k int) *reorderSig {
	var at []int
	f := newFoata()
	re := &reorderSig{next: map[string]string{}}
	texts := map[int]string{}
	n := 0
	p.eachStep(func(a []int) { at = a }, func(g, text []byte) bool {
		if n < k {
			f.add(text)
		} else if _, ok := re.next[string(g)]; !ok {
			re.next[string(g)] = string(text)
		}
		if slices.Contains(at, n) {
			texts[n] = string(text)
		}
		n++
		return true
	})
	if n < k || len(at) == 0 {
		return nil
	}
	for _, i := range at {
		t, ok := texts[i]
		if !ok {
			return nil
		}
		if i < k {
			re.anom = append(re.anom, "in "+t)
			re.readIn = re.readIn || parseDepStep([]byte(t)).op.Reads()
		} else {
			g, _, _ := strings.Cut(t, " ")
			re.anom = append(re.anom, "after "+g)
		}
	}
	re.failed = f.steps[k-1].text
	re.class = f.sum(k)
	return re
}

// bagSums is, for each k of ks, a sum over p's first k steps of a hash
// of each, whatever their order: equivalent prefixes have equal ones, so
// reorderShares reads a schedule whole only when they are.
func (p prediction) bagSums(ks []int) map[int]uint64 {
	out := map[int]uint64{}
	if len(ks) == 0 {
		return out
	}
	last := slices.Max(ks)
	var sum uint64
	n := 0
	p.eachStep(func([]int) {}, func(_, text []byte) bool {
		if n >= last {
			return false
		}
		h := fnv.New64a()
		h.Write(text)
		sum += h.Sum64()
		n++
		if slices.Contains(ks, n) {
			out[n] = sum
		}
		return true
	})
	return out
}

// reorderShares reports whether item it's schedule shares failure f
// through another order of f's first steps (reorderSig; q.mu held).
func (q *replayQueue) reorderShares(it *qItem, f failure) bool {
	if f.re == nil || !reorderable(it.p.a.Pattern) {
		return false
	}
	if f.re.readIn {
		if b := q.explore[it.g.test]; b == nil || b.used < maxExplorations {
			return false
		}
	}
	if it.bags == nil {
		it.bags = map[int]uint64{}
	}
	bag, ok := it.bags[f.k]
	if !ok {
		bag = it.p.bagSums([]int{f.k})[f.k]
		it.bags[f.k] = bag
	}
	if bag != f.re.bag {
		return false
	}
	// Read again for each failure it may share rather than kept: with a
	// thousand goroutines (ants) each view holds a thousand next steps.
	v := it.p.reorderView(f.k)
	return v != nil && v.class == f.re.class && maps.Equal(v.next, f.re.next) && slices.Equal(v.anom, f.re.anom)
}
