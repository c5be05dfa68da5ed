// Package trace defines pecanvet's trace model: the events of one run, and
// their text and binary file formats.
//
// A trace holds the events one run of a Go program produced, in the order
// they happened. The two file formats are a line-oriented text format for
// people, tests and bug reports, and a compact, versioned, streaming
// binary format for recorded runs.
//
// A trace is the single input of the prediction engine (predict/ptg and its
// successors) and the single output of the recorder, so everything both sides
// must agree on lives here: the operations, how an event names its goroutine,
// object and source site, and the attributes (channel capacity, WaitGroup
// delta, receive-from-closed) that the happens-before model needs.
//
// Events are numbered 1, 2, … in trace order; in memory they live in a slice
// indexed from 0, so event number n is Events[n-1].
package trace

import (
	"fmt"
	"hash/maphash"
	"strings"
)

// Op is the kind of an event.
type Op uint8

// The operations. The text names are given by String and accepted by ParseOp.
const (
	OpInvalid Op = iota

	// Memory accesses. The object is the memory location (a map is one
	// location as a whole, as for the race detector); an access of one
	// map element carries its key's hash in Arg (HasKey, KeysApart).
	Read
	Write
	// sync/atomic accesses: synchronizing (release/acquire), never racing.
	// An atomic read-modify-write (Add, Swap, CompareAndSwap that succeeded)
	// is AtomicRMW: both a load and a store.
	AtomicLoad
	AtomicStore
	AtomicRMW

	// sync.Mutex and sync.RWMutex. The object is the lock. RLock/RUnlock
	// take it in read mode; only successful TryLock/TryRLock are recorded.
	Lock
	Unlock
	RLock
	RUnlock

	// Goroutines. Fork's object is the child goroutine, Join's the goroutine
	// whose end it waited for. Begin and End have no object.
	Fork
	Begin
	End
	Join

	// Channels: the object is the channel; Arg holds its capacity. A Recv
	// with FlagClosed observed a closed channel (ok == false); a Send with
	// FlagClosed found it closed and panicked (it delivered nothing).
	Send
	Recv
	Close

	// sync.WaitGroup: Arg of WGAdd is the delta.
	WGAdd
	WGDone
	WGWait

	// sync.Once: one event when Do returns; the first on an object is the
	// call that ran the function.
	OnceDo

	// sync.Cond: CondWait is recorded when Wait returns (the recorder emits
	// the Unlock/Lock of the Cond's locker around it).
	CondWait
	CondSignal
	CondBroadcast

	// Units of work: the object names the unit (e.g. "Counter.Inc").
	RegionBegin
	RegionEnd

	// Sleep is a call of time.Sleep: no object, no synchronization. It
	// ends the goroutine's unit of work (EndsUnit): code that sleeps
	// between two accesses lets others run there on purpose.
	Sleep

	numOps
)

var opNames = [numOps]string{
	OpInvalid:     "invalid",
	Read:          "read",
	Write:         "write",
	AtomicLoad:    "atomic-load",
	AtomicStore:   "atomic-store",
	AtomicRMW:     "atomic-rmw",
	Lock:          "lock",
	Unlock:        "unlock",
	RLock:         "rlock",
	RUnlock:       "runlock",
	Fork:          "fork",
	Begin:         "begin",
	End:           "end",
	Join:          "join",
	Send:          "send",
	Recv:          "recv",
	Close:         "close",
	WGAdd:         "wg-add",
	WGDone:        "wg-done",
	WGWait:        "wg-wait",
	OnceDo:        "once",
	CondWait:      "cond-wait",
	CondSignal:    "cond-signal",
	CondBroadcast: "cond-broadcast",
	RegionBegin:   "region-begin",
	RegionEnd:     "region-end",
	Sleep:         "sleep",
}

var opByName = func() map[string]Op {
	m := make(map[string]Op, numOps)
	for op := Op(1); op < numOps; op++ {
		m[opNames[op]] = op
	}
	return m
}()

func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// ParseOp returns the operation with the given text name.
func ParseOp(name string) (Op, bool) {
	op, ok := opByName[name]
	return op, ok
}

// Valid reports whether o is a known operation.
func (o Op) Valid() bool { return o > OpInvalid && o < numOps }

// IsAccess reports whether o reads or writes memory (plain or atomic).
func (o Op) IsAccess() bool { return o >= Read && o <= AtomicRMW }

// IsAtomic reports whether o is a sync/atomic access.
func (o Op) IsAtomic() bool { return o >= AtomicLoad && o <= AtomicRMW }

// Reads reports whether o reads memory.
func (o Op) Reads() bool { return o == Read || o == AtomicLoad || o == AtomicRMW }

// Writes reports whether o writes memory.
func (o Op) Writes() bool { return o == Write || o == AtomicStore || o == AtomicRMW }

// IsAcquire reports whether o acquires a lock (in either mode).
func (o Op) IsAcquire() bool { return o == Lock || o == RLock }

// IsRelease reports whether o releases a lock (in either mode).
func (o Op) IsRelease() bool { return o == Unlock || o == RUnlock }

// IsChan reports whether o is a channel operation.
func (o Op) IsChan() bool { return o == Send || o == Recv || o == Close }

// ObjectKind says what the object of an event with this op names.
type ObjectKind uint8

const (
	ObjNone      ObjectKind = iota // no object (begin, end)
	ObjObject                      // an entry of Trace.Objects
	ObjGoroutine                   // an entry of Trace.Goroutines (fork, join)
)

// Object reports what o's object names.
func (o Op) Object() ObjectKind {
	switch o {
	case Begin, End, Sleep:
		return ObjNone
	case Fork, Join:
		return ObjGoroutine
	}
	return ObjObject
}

// EndsUnit reports whether an event with op o ends its goroutine's unit of
// work (an atomic region, for the atomicity patterns): the goroutine
// starts or waits for another, communicates, or sleeps. A unit never
// spans such a blocking point: a `for { select { … } }` loop is many
// units, and so is a loop that sleeps between its steps.
func (o Op) EndsUnit() bool {
	switch o {
	case Fork, Join, Send, Recv, Close, WGWait, CondWait, Sleep:
		return true
	}
	return false
}

// HasCap reports whether events with op o carry a channel capacity in Arg.
func (o Op) HasCap() bool { return o.IsChan() }

// HasDelta reports whether events with op o carry a delta in Arg.
func (o Op) HasDelta() bool { return o == WGAdd }

// HasKey reports whether events with op o may carry a map key in Arg: a
// plain read or write of one element of the map that is its object holds
// a non-zero hash of the element's key; 0 is an access of the whole map
// (len, range, clear, or a key the instrumentation did not hash). Races
// ignore the key (Go's race detector sees the map as one location: two
// goroutines writing different keys race on its internals); the
// atomicity and atomic-set patterns use it, through KeysApart.
func (o Op) HasKey() bool { return o == Read || o == Write }

// KeysApart reports whether a and b access different elements of one map:
// both carry a key, and the keys differ. Equal hashes of different keys
// make them one element (coarser: more conflicts, never fewer); an access
// of the whole map is apart from no element.
func KeysApart(a, b Event) bool {
	return a.Op.HasKey() && b.Op.HasKey() && a.Arg != 0 && b.Arg != 0 && a.Arg != b.Arg
}

// Event flags.
const (
	// FlagClosed marks a Recv that observed a closed channel, or a Send
	// that found it closed and panicked.
	FlagClosed uint8 = 1 << iota
	// FlagAdd, FlagAnd and FlagOr mark an AtomicRMW that was an atomic Add,
	// And or Or: updates of one such kind commute with each other, so they
	// never form an atomicity violation among themselves.
	FlagAdd
	FlagAnd
	FlagOr
	// FlagUnused marks such an update whose result the program discards
	// (a statement atomic.AddInt32(&n, 1), or a deferred one): no goroutine
	// observes the value it read, so it commutes with every other unused
	// update of its kind, as a state change and as an observation.
	FlagUnused
	// FlagBlocked marks a Send or Recv (a range loop's, a select's first
	// case's), a Lock, RLock, WGWait or CondWait that never happened: its goroutine,
	// started by the test, was blocked in it when the test ended (the
	// recorder writes such events last, at the end of the test's trace).
	// Readers keep them apart, in Trace.Blocked: they are no event of the
	// run's order, and nothing happens after them.
	FlagBlocked
	// FlagVal marks a plain write of one map element (a store m[k] = v,
	// its key in Arg) whose Event.Val is the stored value's identity:
	// two such writes with equal Val stored equal values (StoredAlike).
	FlagVal
	// FlagLen marks a plain write of a slice-typed variable (a store
	// v = s of the whole slice header, no key) whose Event.Val is the
	// length of the slice it stored (StoredLen).
	FlagLen
)

// UpdateFlags are the flags that name the kind of a commutative update.
const UpdateFlags = FlagAdd | FlagAnd | FlagOr

// ValidFlags reports whether flags may be set on an event with op o:
// FlagClosed or FlagBlocked on a Recv or a Send; FlagBlocked on a Lock,
// RLock, WGWait or CondWait; one of FlagAdd, FlagAnd, FlagOr on an
// AtomicRMW, with or without FlagUnused; FlagVal or FlagLen on a Write.
func ValidFlags(o Op, flags uint8) bool {
	switch {
	case flags == 0:
		return true
	case o == Recv || o == Send:
		return flags == FlagClosed || flags == FlagBlocked
	case o == Lock || o == RLock || o == WGWait || o == CondWait:
		return flags == FlagBlocked
	case o == AtomicRMW:
		u := flags &^ FlagUnused
		return u == FlagAdd || u == FlagAnd || u == FlagOr
	case o == Write:
		return flags == FlagVal || flags == FlagLen
	}
	return false
}

// UpdateName is the text name of a commutative update kind ("add", "and",
// "or"; "add-unused" … with FlagUnused), or "" if flags name none.
func UpdateName(flags uint8) string {
	var s string
	switch flags & UpdateFlags {
	case FlagAdd:
		s = "add"
	case FlagAnd:
		s = "and"
	case FlagOr:
		s = "or"
	default:
		return ""
	}
	if flags&FlagUnused != 0 {
		s += "-unused"
	}
	return s
}

// ParseUpdate is the inverse of UpdateName.
func ParseUpdate(name string) (uint8, bool) {
	if n, ok := strings.CutSuffix(name, "-unused"); ok {
		f, ok := ParseUpdate(n)
		return f | FlagUnused, ok && !strings.HasSuffix(n, "-unused")
	}
	switch name {
	case "add":
		return FlagAdd, true
	case "and":
		return FlagAnd, true
	case "or":
		return FlagOr, true
	}
	return 0, false
}

// Event is one recorded operation. It is 32 bytes so that a trace of 10^7
// events fits comfortably in memory next to the prediction engine's indices.
type Event struct {
	G     int32 // goroutine: index into the goroutine table
	Op    Op
	Flags uint8
	Obj   int32 // index into the object table, or the goroutine table for Fork/Join; -1 if none
	Site  int32 // index into the site table; -1 if unknown
	Arg   int64 // channel capacity (Send, Recv, Close), delta (WGAdd), map key's hash (Read, Write); else 0
	// Val, with FlagVal on a Write, is the identity of the value the
	// write stored in one map element (the runtime's ValID): the bits
	// of a pointer, channel, map, func or unsafe.Pointer value (its
	// address), or of a boolean, integer or float; never of an
	// interface, string or composite value (no FlagVal then). One
	// process's two stores of one map's elements with equal Val stored
	// equal bits. With FlagLen on a Write, it is the length of the
	// slice the write stored in its variable (StoredLen). 0 without
	// either.
	Val uint64
}

// StoredLen returns the length of the slice the write e stored in its
// variable, when the trace recorded it (FlagLen, on a write of the whole
// variable: no key, a length a slice can have).
func StoredLen(e Event) (int64, bool) {
	if e.Op != Write || e.Flags&FlagLen == 0 || e.Arg != 0 || e.Val > 1<<62 {
		return 0, false
	}
	return int64(e.Val), true
}

// StoredAlike reports whether a and b are plain writes of one element
// of one map (equal keys) that stored the same value: both carry an
// identity (FlagVal) and the identities are equal. Equal Val means
// equal bits of the map's element type, which is neither an interface
// nor a string (ValID's kinds), so equal values; a collision of the
// keys' hashes only asks more of the claim (an element of another key
// that stored the same bits). Both must come from one process (one
// recording, or one replay): an address means nothing in another.
func StoredAlike(a, b Event) bool {
	return a.Op == Write && b.Op == Write && a.Flags&FlagVal != 0 && b.Flags&FlagVal != 0 &&
		a.Obj == b.Obj && a.Arg != 0 && a.Arg == b.Arg && a.Val == b.Val
}

// NoIndex marks an absent object or site.
const NoIndex = -1

// Tables names the goroutines, objects and sites that events refer to by
// index. Names are unique within a table.
type Tables struct {
	Goroutines []string
	Objects    []string
	Sites      []string // "file:line" or "file:line:col"
}

// Trace is a whole trace in memory.
type Trace struct {
	Tables
	Events []Event
	// Truncated is non-empty when the run that produced the trace ended
	// abnormally (panic, os.Exit, timeout, kill) and says why.
	Truncated string
	// Blocked are the channel operations (FlagBlocked) in which
	// goroutines the test started were blocked when it ended, in the
	// order written: not part of Events.
	Blocked []Event
}

// Interner builds Tables, giving each distinct name one index. Its index of
// each table holds table positions, not names (a hash table of int32s, 8
// bytes or less per name where a map[string]int32 took over 40): a trace of
// a test that allocates in a loop names millions of objects. The names an
// Interner added to T must not be changed.
type Interner struct {
	T   *Tables
	idx [3]nameIndex
}

// Table selectors for Interner.
const (
	TabGoroutine = 0
	TabObject    = 1
	TabSite      = 2
)

// NewInterner returns an Interner that appends to t, which may already hold names.
func NewInterner(t *Tables) *Interner {
	in := &Interner{T: t}
	for i, tab := range [3][]string{t.Goroutines, t.Objects, t.Sites} {
		for j, s := range tab {
			in.idx[i].put(tab, maphash.String(nameSeed, s), int32(j))
		}
	}
	return in
}

func (in *Interner) table(which int) *[]string {
	switch which {
	case TabGoroutine:
		return &in.T.Goroutines
	case TabObject:
		return &in.T.Objects
	default:
		return &in.T.Sites
	}
}

// Intern returns the index of name in the selected table, adding it if new.
// The second result reports whether it was added.
func (in *Interner) Intern(which int, name string) (int32, bool) {
	tab := in.table(which)
	x := &in.idx[which]
	if 2*(x.n+1) > len(x.slots) {
		x.grow(*tab, max(16, 2*len(x.slots)))
	}
	// One probe finds the name or the empty slot it goes in (a binary
	// trace can define a million object names, each interned once).
	mask := uint64(len(x.slots) - 1)
	for p := maphash.String(nameSeed, name) & mask; ; p = (p + 1) & mask {
		v := x.slots[p]
		if v == 0 {
			i := int32(len(*tab))
			*tab = append(*tab, name)
			x.slots[p] = i + 1
			x.n++
			return i, true
		}
		if (*tab)[v-1] == name {
			return v - 1, false
		}
	}
}

// Reserve makes room for n more names in the selected table and its
// index, so that interning them neither copies the table nor rehashes the
// index: for a caller that knows about how many names are coming
// (ReadOptions.Objects). Growing by doubling rehashed every name at each
// step, a third of reading a trace of half a million objects.
func (in *Interner) Reserve(which, n int) {
	if n <= 0 {
		return
	}
	tab := in.table(which)
	if cap(*tab)-len(*tab) < n {
		t := make([]string, len(*tab), len(*tab)+n)
		copy(t, *tab)
		*tab = t
	}
	x := &in.idx[which]
	size := max(16, len(x.slots))
	for 2*(x.n+n+1) > size {
		size *= 2
	}
	if size > len(x.slots) {
		x.grow(*tab, size)
	}
}

// Lookup returns the index of name in the selected table.
func (in *Interner) Lookup(which int, name string) (int32, bool) {
	return in.idx[which].find(*in.table(which), maphash.String(nameSeed, name), name)
}

// lookupBytes is Lookup of a name given as bytes, without converting it.
func (in *Interner) lookupBytes(which int, name []byte) (int32, bool) {
	tab := *in.table(which)
	x := &in.idx[which]
	if x.n == 0 {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for p := maphash.Bytes(nameSeed, name) & mask; ; p = (p + 1) & mask {
		v := x.slots[p]
		if v == 0 {
			return 0, false
		}
		if tab[v-1] == string(name) {
			return v - 1, true
		}
	}
}

var nameSeed = maphash.MakeSeed()

// nameIndex is an open-addressing hash table (linear probing, at most half
// full) of positions in a table of names.
type nameIndex struct {
	slots []int32 // position + 1; 0: empty
	n     int
}

// find returns the position of name (whose hash is h) in tab.
func (x *nameIndex) find(tab []string, h uint64, name string) (int32, bool) {
	if x.n == 0 {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for p := h & mask; ; p = (p + 1) & mask {
		v := x.slots[p]
		if v == 0 {
			return 0, false
		}
		if tab[v-1] == name {
			return v - 1, true
		}
	}
}

// put records that tab[i], whose hash is h, is at position i, replacing
// the position of an equal name.
func (x *nameIndex) put(tab []string, h uint64, i int32) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow(tab, max(16, 2*len(x.slots)))
	}
	mask := uint64(len(x.slots) - 1)
	for p := h & mask; ; p = (p + 1) & mask {
		v := x.slots[p]
		if v == 0 {
			x.slots[p] = i + 1
			x.n++
			return
		}
		if tab[v-1] == tab[i] {
			x.slots[p] = i + 1
			return
		}
	}
}

// grow rehashes the index into size slots (a power of two).
func (x *nameIndex) grow(tab []string, size int) {
	old := x.slots
	x.slots = make([]int32, size)
	mask := uint64(len(x.slots) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		p := maphash.String(nameSeed, tab[v-1]) & mask
		for x.slots[p] != 0 {
			p = (p + 1) & mask
		}
		x.slots[p] = v
	}
}

// Name returns a printable name for index i of the selected table.
func (t *Tables) Name(which int, i int32) string {
	var tab []string
	switch which {
	case TabGoroutine:
		tab = t.Goroutines
	case TabObject:
		tab = t.Objects
	default:
		tab = t.Sites
	}
	if i < 0 || int(i) >= len(tab) {
		return ""
	}
	return tab[i]
}

// Site returns the site name of e, or "" if it has none.
func (t *Tables) Site(e Event) string { return t.Name(TabSite, e.Site) }

// Desc returns an object's name without its instance suffix ("desc#k"
// → "desc"): what every instance of one allocation site's description
// shares.
func Desc(name string) string {
	if i := strings.LastIndexByte(name, '#'); i >= 0 {
		return name[:i]
	}
	return name
}

// ObjName returns the printable object of e: an object or goroutine name.
func (t *Tables) ObjName(e Event) string {
	switch e.Op.Object() {
	case ObjObject:
		return t.Name(TabObject, e.Obj)
	case ObjGoroutine:
		return t.Name(TabGoroutine, e.Obj)
	}
	return ""
}

// Check verifies that every event of tr refers to table entries that exist
// and carries the object its op requires. The decoders guarantee this for
// what they return; Check is for traces built in memory.
func (tr *Trace) Check() error {
	for i, e := range tr.Events {
		if err := tr.Tables.checkEvent(e); err != nil {
			return fmt.Errorf("event %d: %v", i+1, err)
		}
	}
	return nil
}

func (t *Tables) checkEvent(e Event) error { return t.checkEventN(e, len(t.Objects)) }

// checkEvent with nObjects objects (an encoder's LazyObjects).
func (t *Tables) checkEventN(e Event, nObjects int) error {
	if !e.Op.Valid() {
		return fmt.Errorf("unknown op %d", e.Op)
	}
	if e.G < 0 || int(e.G) >= len(t.Goroutines) {
		return fmt.Errorf("goroutine index %d out of range", e.G)
	}
	switch e.Op.Object() {
	case ObjNone:
		if e.Obj != NoIndex {
			return fmt.Errorf("%s takes no object", e.Op)
		}
	case ObjObject:
		if e.Obj < 0 || int(e.Obj) >= nObjects {
			return fmt.Errorf("%s: object index %d out of range", e.Op, e.Obj)
		}
	case ObjGoroutine:
		if e.Obj < 0 || int(e.Obj) >= len(t.Goroutines) {
			return fmt.Errorf("%s: goroutine index %d out of range", e.Op, e.Obj)
		}
	}
	if e.Site != NoIndex && (e.Site < 0 || int(e.Site) >= len(t.Sites)) {
		return fmt.Errorf("site index %d out of range", e.Site)
	}
	if !e.Op.HasCap() && !e.Op.HasDelta() && !e.Op.HasKey() && e.Arg != 0 {
		return fmt.Errorf("%s takes no argument", e.Op)
	}
	if e.Op.HasCap() && e.Arg < 0 {
		return fmt.Errorf("%s: negative capacity %d", e.Op, e.Arg)
	}
	if !ValidFlags(e.Op, e.Flags) {
		return fmt.Errorf("%s: invalid flags %#x", e.Op, e.Flags)
	}
	if e.Flags&(FlagVal|FlagLen) == 0 && e.Val != 0 {
		return fmt.Errorf("%s: a value identity without FlagVal", e.Op)
	}
	return nil
}

// Decoder reads a trace one event at a time, so that traces larger than
// memory can be streamed. Tables grows as names are first used.
type Decoder interface {
	// Next returns the next event, or io.EOF after the last one.
	Next() (Event, error)
	// Tables returns the names seen so far.
	Tables() *Tables
	// Truncated returns the truncation reason recorded in the trace, if any.
	// It is complete once Next has returned io.EOF.
	Truncated() string
}
