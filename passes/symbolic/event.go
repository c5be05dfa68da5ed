package symbolic

import (
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Op is the kind of a symbolic event. The names (String) follow the op names
// of the trace format (dynamic/trace) where one exists.
type Op uint8

// The event kinds.
const (
	OpRead          Op = iota + 1 // plain read of Loc
	OpWrite                       // plain write of Loc
	OpAtomicLoad                  // sync/atomic load of Loc
	OpAtomicStore                 // sync/atomic store of Loc
	OpAtomicRMW                   // sync/atomic read-modify-write (Add, Swap, CompareAndSwap, And, Or) of Loc
	OpLock                        // Mutex.Lock / RWMutex.Lock (TryLock: see Event)
	OpUnlock                      // Mutex.Unlock / RWMutex.Unlock
	OpRLock                       // RWMutex.RLock
	OpRUnlock                     // RWMutex.RUnlock
	OpGo                          // go statement (or WaitGroup.Go, errgroup-style Go(func)); Callee is the body
	OpSend                        // channel send (Loc is the channel type)
	OpRecv                        // channel receive, also in select and range
	OpClose                       // close(ch)
	OpWGAdd                       // WaitGroup.Add
	OpWGDone                      // WaitGroup.Done
	OpWGWait                      // WaitGroup.Wait
	OpOnce                        // Once.Do; the body follows as a call
	OpCondWait                    // Cond.Wait
	OpCondSignal                  // Cond.Signal
	OpCondBroadcast               // Cond.Broadcast
	OpCall                        // a call; Callee is the static callee if known, Loc describes it
	numOps
)

var opNames = [...]string{
	OpRead:          "read",
	OpWrite:         "write",
	OpAtomicLoad:    "atomic-load",
	OpAtomicStore:   "atomic-store",
	OpAtomicRMW:     "atomic-rmw",
	OpLock:          "lock",
	OpUnlock:        "unlock",
	OpRLock:         "rlock",
	OpRUnlock:       "runlock",
	OpGo:            "go",
	OpSend:          "send",
	OpRecv:          "recv",
	OpClose:         "close",
	OpWGAdd:         "wg-add",
	OpWGDone:        "wg-done",
	OpWGWait:        "wg-wait",
	OpOnce:          "once",
	OpCondWait:      "cond-wait",
	OpCondSignal:    "cond-signal",
	OpCondBroadcast: "cond-broadcast",
	OpCall:          "call",
}

// String returns the op's name, e.g. "read", "wg-add", "atomic-rmw".
func (op Op) String() string {
	if op > 0 && op < numOps {
		return opNames[op]
	}
	return "Op(" + strconv.Itoa(int(op)) + ")"
}

// IsAccess reports whether op accesses memory (plain or atomic).
func (op Op) IsAccess() bool { return op >= OpRead && op <= OpAtomicRMW }

// IsAtomic reports whether op is a sync/atomic access.
func (op Op) IsAtomic() bool { return op >= OpAtomicLoad && op <= OpAtomicRMW }

// Reads reports whether op reads its location (a read-modify-write does).
func (op Op) Reads() bool { return op == OpRead || op == OpAtomicLoad || op == OpAtomicRMW }

// Writes reports whether op writes its location (a read-modify-write does).
func (op Op) Writes() bool { return op == OpWrite || op == OpAtomicStore || op == OpAtomicRMW }

// IsSync reports whether op is a synchronization or thread-communication
// operation: anything but plain accesses and calls.
func (op Op) IsSync() bool { return op > OpWrite && op < OpCall }

// Held is a lock that is certainly held (must-held) at an event.
type Held struct {
	// Lock is the abstract lock, named like a location ("pkgpath.T.mu").
	// A name starting with '?' is a lock of unknown identity (reached
	// through a parameter or an interface); such locks never exclude an
	// anomaly.
	Lock string
	// Read is set when the lock is only known to be read-held (RLock). A
	// read-held lock excludes only write holders.
	Read bool
	// CS identifies the acquisition (the critical-section instance) within
	// one sequence: two events with the same Lock and the same CS > 0 are
	// in the same critical section, the lock held continuously between
	// them. CS is -1 when control-flow paths with different acquisitions
	// merged (still held, but no identity). Two executions of one event
	// (in a loop) share the critical section only if Repeat is set.
	CS int32
	// Repeat is set when the event can execute more than once within one
	// instance of this critical section: a loop around the event inside
	// the critical section (not one that re-acquires the lock).
	Repeat bool
	// Once marks the pseudo-lock of a sync.Once held by the body of
	// Once.Do (Lock names the Once): bodies of one Once never both run,
	// so events of two goroutines both holding it exclude each other
	// whatever their order.
	Once bool
}

// Known reports whether the lock has a static identity usable for exclusion.
func (h Held) Known() bool { return h.Lock != "" && h.Lock[0] != '?' }

// Conflicts reports whether two holders of the same known lock exclude each
// other: at least one of them holds it for writing.
func (h Held) Conflicts(o Held) bool {
	return h.Lock == o.Lock && h.Known() && !(h.Read && o.Read)
}

func (h Held) String() string {
	if h.Read {
		return h.Lock + "(r)"
	}
	return h.Lock
}

// An Event is one symbolic event of a function's sequence.
type Event struct {
	Op Op
	// Loc is the abstract object: a memory location for accesses
	// ("pkgpath.T.f", "pkgpath.v", "[]pkgpath.T elem", "map[K]V",
	// "(*pkgpath.T).M.x" for a captured local variable x of that
	// function, "*L" for the target of a pointer loaded from L, "*T" for a
	// pointer of unknown origin), a lock or other sync object (named like
	// a location), a channel type ("chan T"), or for OpCall/OpGo a
	// description of the callee.
	Loc string
	// Pos is the source position of the event, always in the analyzed
	// package: the Pos() of the SSA instruction (see the package
	// documentation for which instruction). For events taken from another
	// package's summary it is the position of the call in this package,
	// and Ext holds the original site.
	Pos token.Pos
	// Ext is, for events that come from another package's summary
	// (an analysis fact), the original site "file:line:col" in that
	// package; "" otherwise.
	Ext string
	// Held is the must-held lockset at the event, sorted by Lock.
	Held []Held
	// Unit numbers the method-call unit of work the event belongs to
	// within a flattened sequence: events spliced in from one call of a
	// method (a function with a receiver) share a Unit > 0; nested method
	// calls belong to the outermost one. 0: no unit (the sequence's own
	// function counts as a unit only if the consumer says so).
	Unit int32
	// UnitRepeat is set when the event can execute more than once within
	// one instance of its unit (a loop inside the method call).
	UnitRepeat bool
	// Deferred marks an operation of a deferred call; it is placed where
	// the deferred calls run (at the function's RunDefers).
	Deferred bool
	// TryLock marks a lock/rlock event of TryLock/TryRLock (it succeeds only
	// on the branch that tests the result true).
	TryLock bool
	// Callee is the static callee for OpCall, the goroutine body for OpGo
	// and the function run by OpOnce, when known.
	Callee *ssa.Function
	// Alloc is set for accesses to a captured (heap) local variable: its
	// allocation. Such a location is fresh for every invocation of the
	// declaring function.
	Alloc *ssa.Alloc
	// Instr is the SSA instruction of the event; nil for events from
	// another package's summary.
	Instr ssa.Instruction

	path []step   // position in the (flattened) sequence, see MayPrecede
	fn   *Func    // in-package callee (OpCall/OpGo), if it has a body
	sum  *Summary // callee summary from another package (OpCall/OpGo), if any
	recv bool     // OpCall/OpGo: the callee is a method (has a receiver)
	once string   // OpCall of a Once.Do body: the Once, held as a lock by the body
}

// step is one level of an event's position: instruction (blk, idx) of
// function f; blk == -1 means sub-position idx within the previous level's
// instruction (ordered); f == nil means the idx-th event of an imported
// summary, with blk 1 if it repeats (SummaryEvent.Repeats), 0 otherwise.
type step struct {
	f        *Func
	blk, idx int32
}

// String renders an event for debugging and tests: "op loc [held] unit".
func (e *Event) String() string {
	var b strings.Builder
	b.WriteString(e.Op.String())
	if e.Loc != "" {
		b.WriteByte(' ')
		b.WriteString(e.Loc)
	}
	if len(e.Held) > 0 {
		b.WriteString(" held=")
		for i, h := range e.Held {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(h.String())
		}
	}
	if e.Deferred {
		b.WriteString(" deferred")
	}
	if e.Ext != "" {
		b.WriteString(" ext=")
		b.WriteString(e.Ext)
	}
	return b.String()
}

// mergeHeld returns the union of outer and inner (both sorted); for a lock
// in both, outer's entry wins (it is the outermost critical section).
func mergeHeld(outer, inner []Held) []Held {
	if len(inner) == 0 {
		return outer
	}
	if len(outer) == 0 {
		return inner
	}
	out := make([]Held, 0, len(outer)+len(inner))
	i, j := 0, 0
	for i < len(outer) || j < len(inner) {
		switch {
		case j == len(inner) || i < len(outer) && outer[i].Lock < inner[j].Lock:
			out = append(out, outer[i])
			i++
		case i == len(outer) || inner[j].Lock < outer[i].Lock:
			out = append(out, inner[j])
			j++
		default:
			out = append(out, outer[i])
			i++
			j++
		}
	}
	return out
}
