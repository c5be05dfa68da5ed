package depend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// SliceLen is what the replay's trace shows before one event of a
// violation on a slice-typed variable (Event.Len): the length of the
// slice the last write of the variable before the event stored
// (trace.FlagLen), -1 when that write recorded none or the trace shows
// no write before it; whether that write was another goroutine's; and
// whether the event's goroutine read the variable after that write and
// before the event (Fresh: a write's own read-modify-write read what it
// replaces); and the trace positions of the event and of its own
// goroutine's last write of the variable before it (-1: none).
type SliceLen struct {
	Len   int64
	Other bool
	Fresh bool
	At    int
	OwnAt int
}

// lenAlike reports whether a unit's check a, a read of a slice-typed
// variable, decides its later event b on what b would see too: a is a
// predicate's only load of the variable, used only through its length,
// and the predicate answers alike on the length a read and on the one
// b finds.
//   - a's function F returns one boolean; a is F's only load of the
//     field (or package variable), its value is used only as len's
//     argument, and every len's value only computes F's result: no
//     branch, store, call or send uses it (lenOnly).
//   - The replay's trace (Event.Len) gives the length the write a read
//     stored, and for b the length of the last write of the variable
//     before it: the value b reads, or, for a write, the one b
//     replaces, which the unit read after it and before b (the act's
//     own read: a take that read before the other's append and wrote
//     after it loses the append, whatever the check said); that last
//     write is another goroutine's, and the unit's goroutine wrote the
//     variable nowhere from a to b.
//   - F's result, evaluated with len giving each of the two lengths
//     (predicateOn, the evaluator of checkedAlike), is one boolean, the
//     same for both.
//
// Then a's value reaches the unit only as F's answer, which is the
// answer on the value b finds: the unit runs as it would had the other
// goroutines' steps between a and b all come before a (they wrote what b
// finds; the unit wrote the variable nowhere between, so none of their
// accesses of it saw the unit's), its check reading what b reads: the
// same answer, the same path, the same values at b. goresilience
// v0.2.0's dynamicQueue.dequeuer (concurrencylimit/execute/queue.go:144)
// tests queueIsEmpty(), `len(d.jobs) < 1` under jobsMu, then takes
// jobsMu again to dequeue (:131); the enqueuer only appends between
// (:93), so a queue not empty stays not empty.
//
// Why sound: the lengths are the replay's own, exact, recorded with
// each plain store of a slice-typed variable before the store (rt.XWL);
// a write with no length (an element's store, a store the
// instrumentation could not evaluate again, code it does not see) makes
// the length unknown and the rule gives up. What it does not claim: F
// reading anything else the answer depends on (the evaluator knows only
// constants and the lengths), two loads of the variable in F, a length
// that decides a branch or is kept, b reading the unit's own write, or
// the unit writing the variable between: `if !q.empty() { q.pop() }`
// with another consumer that can empty the queue between stays judged,
// since its answer on the emptied queue differs.
func (x *Index) lenAlike(a, b Event) bool {
	if !a.Read || a.Write || a.Len == nil || b.Len == nil || b.Var != a.Var {
		return false
	}
	if a.Len.Len < 0 || b.Len.Len < 0 || !b.Len.Other || b.Len.OwnAt > a.Len.At || b.Write && !b.Len.Fresh {
		return false
	}
	fn, lens, ok := x.lenOnly(a.Site)
	if !ok {
		return false
	}
	return answersAlike(fn, lens, a.Len.Len, b.Len.Len)
}

// answersAlike reports whether F (fn, its len calls lens: lenOnly)
// gives one boolean on each of the lengths n1 and n2, the same for both
// (predicateOn).
func answersAlike(fn *ssa.Function, lens []ssa.Value, n1, n2 int64) bool {
	at := func(n int64) abstract {
		h := abstract{ok: true, integer: true, width: 64, signed: true}
		h.known, h.ones = h.mask(), uint64(n)
		return h
	}
	r1, ok1 := predicateOn(fn, lens, at(n1))
	r2, ok2 := predicateOn(fn, lens, at(n2))
	return ok1 && ok2 && r1 == r2
}

// Ahead is one later event of a check's unit (To, its index in the
// violation's events) for which the replay's trace shows every other
// goroutine's step, from the start of the check's critical section to
// that event, free to run before that start, and the length of the
// check's variable those steps leave (Len, -1 unknown): the length the
// check reads in that order (check's aheadLen).
type Ahead struct {
	To  int
	Len int64
}

// lenAhead reports whether a unit's check a, a predicate's length-only
// load of a slice-typed variable V (lenOnly, as lenAlike), decides its
// later event j, of any variable, on what a serial order gives too: the
// other goroutines' steps between, run before a's critical section,
// leave the unit's path and every value it reads to j as they were.
//   - The replay's trace gives the length a read (Event.Len) and, for j
//     (Event.Ahead, check's aheadLen), says that moving every other
//     goroutine's step from the start of a's critical section to j
//     before that start changes what no event but a reads: the unit
//     makes no synchronizing operation there but locks, none of its
//     accesses there comes before a conflicting access of another
//     goroutine (one object, one of them a write) but a against their
//     writes of V, no other goroutine takes there a lock the unit holds
//     at the start, and the others release there every lock they take
//     there that the unit takes too; the length the last of those
//     writes of V stored is recorded (another goroutine's write with no
//     length gives up).
//   - F's result, evaluated on a's length and on that one (predicateOn),
//     is one boolean, the same for both.
//
// Then the run is, for the unit, the one in which the other goroutines'
// steps up to j all came before a's critical section: every event of
// the unit reads the same write as in the replay, but a, which reads the
// length those steps left and on it gives F's same answer; a's value
// reaches the unit only as that answer (lenOnly), so the unit takes the
// same path and reads the same values up to j, and the interleaving
// changes nothing it uses. goresilience v0.2.0's dynamicQueue
// (concurrencylimit/execute/queue.go:144, asv-12 on jobs and
// queueStats.size): the dequeuer checks `len(d.jobs) < 1` (not empty),
// the enqueuer counts the job (inc, :193) and appends it (:93), then the
// dequeuer takes a job (:131, reading the append) and uncounts (decr,
// :200, reading the count): the enqueuer reads nothing the dequeuer
// wrote since its check and the dequeuer's reads all come after the
// enqueuer's writes, so with the enqueuer's step first the check finds
// a longer queue, still not empty, and everything after is as it was.
//
// Why sound: the reordering keeps each goroutine's program order, each
// read's write (conflicting accesses keep their order) and the locks'
// validity (the conditions above), so it is an execution of the
// program; only a's value differs, and the unit cannot tell (F's answer
// is a function of the length alone: the evaluator knows only constants
// and the lengths, and no branch uses the length inside F). It does not
// apply when the unit writes V between a and another goroutine's write
// of V, or reads V again before it (the dequeuer's own take before the
// append: its re-read is not of what the others left), or writes
// anything another goroutine then reads or writes in the stretch (the
// other's steps would see the unit's write), or reads anything before
// another goroutine writes it there; when the unit sends, receives,
// waits or forks there; when a lock the unit holds at the stretch's
// start is taken by another there, or another keeps a lock the unit
// takes there; when a length is unknown (a write of V with none
// recorded) or F reads anything but lengths; or when F's answer on the
// length left differs (a second consumer that empties the queue between
// the check and the take: not empty, then empty). The trace records
// neither a select's default nor a failed TryLock, nor a channel's len,
// nor accesses by code it does not instrument: like the prediction
// itself, the rule takes the trace's events for all that the goroutines
// exchange.
func (x *Index) lenAhead(a Event, j int) bool {
	if !a.Read || a.Write || a.Len == nil || a.Len.Len < 0 {
		return false
	}
	for _, h := range a.Ahead {
		if h.To != j || h.Len < 0 {
			continue
		}
		fn, lens, ok := x.lenOnly(a.Site)
		return ok && answersAlike(fn, lens, a.Len.Len, h.Len)
	}
	return false
}

// LenTested reports whether the read at site is a predicate's only load
// of a slice-typed variable, used only through its length (lenOnly): the
// check's reads whose lengths lenAlike asks of the replay's trace.
func (x *Index) LenTested(site string) bool {
	_, _, ok := x.lenOnly(site)
	return ok
}

// lenOnly returns the function F that the read at site loads in, and the
// len calls on the value it loads, when F returns one boolean, the read
// is F's only load of its field or package variable, of a slice type,
// and every use of the loaded value is one len call whose value only
// computes F's result: through comparisons, arithmetic, conversions and
// phis to its returns, with no branch on it.
func (x *Index) lenOnly(site string) (*ssa.Function, []ssa.Value, bool) {
	rs := x.reads(site, nil)
	if len(rs) != 1 {
		return nil, nil, false
	}
	v := rs[0]
	fn := v.Parent()
	if fn == nil || fn.Signature.Results().Len() != 1 {
		return nil, nil, false
	}
	if b, ok := fn.Signature.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
		return nil, nil, false
	}
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return nil, nil, false
	}
	if u, ok := v.(*ssa.UnOp); !ok || u.Op.String() != "*" {
		return nil, nil, false
	}
	if sib, ok := siblingReads(v); !ok || len(sib) != 1 {
		return nil, nil, false
	}
	var lens []ssa.Value
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if bi, ok := r.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "len" || len(r.Call.Args) != 1 || r.Call.Args[0] != v {
				return nil, nil, false
			}
			if !toResult(r) {
				return nil, nil, false
			}
			lens = append(lens, r)
		default:
			return nil, nil, false
		}
	}
	return fn, lens, len(lens) > 0
}

// toResult reports whether every use of v, and of what is computed from
// it, only computes its function's result: comparisons, arithmetic,
// negation, conversions and phis, ending in returns (or stores in the
// function's own result slot, which its returns load).
func toResult(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		if v.Referrers() == nil {
			return false
		}
		for _, ref := range *v.Referrers() {
			switch u := ref.(type) {
			case *ssa.DebugRef, *ssa.Return:
			case *ssa.Store:
				if a, ok := u.Addr.(*ssa.Alloc); !ok || u.Val != v || !resultSlot(a) {
					return false
				}
			case *ssa.BinOp:
				if !walk(u) {
					return false
				}
			case *ssa.UnOp:
				if u.Op.String() == "<-" || u.Op.String() == "*" || !walk(u) {
					return false
				}
			case *ssa.Convert:
				if !walk(u) {
					return false
				}
			case *ssa.ChangeType:
				if !walk(u) {
					return false
				}
			case *ssa.Phi:
				if !walk(u) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return walk(v)
}

// resultSlot reports whether a is a function's own result slot: a local
// (not on the heap) that is only stored to and loaded from, each load
// only returned.
func resultSlot(a *ssa.Alloc) bool {
	if a.Heap || a.Referrers() == nil {
		return false
	}
	for _, ref := range *a.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != a {
				return false
			}
		case *ssa.UnOp:
			if r.Op.String() != "*" || r.Referrers() == nil {
				return false
			}
			for _, u := range *r.Referrers() {
				if _, ok := u.(*ssa.Return); !ok {
					if _, ok := u.(*ssa.DebugRef); !ok {
						return false
					}
				}
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}
