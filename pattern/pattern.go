package pattern

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Access is the access type of a pattern event.
type Access uint8

// The access types.
const (
	R Access = iota + 1 // a read (matches any access that reads)
	W                   // a write (matches any access that writes)
)

// String returns "r" or "w".
func (a Access) String() string {
	switch a {
	case R:
		return "r"
	case W:
		return "w"
	}
	return "Access(" + strconv.Itoa(int(a)) + ")"
}

func (a Access) word() string {
	switch a {
	case R:
		return "read"
	case W:
		return "write"
	}
	return a.String()
}

// A Pattern is an access-anomaly pattern [E, T, SV, AR, AT]; see the package
// documentation for its meaning. E, T, SV, AR and AT have the same length,
// Len. T, SV and AR are normalized: numbered by first occurrence 0, 1, 2, ….
type Pattern struct {
	Kind     string // "race", "av", "asv", or a user-chosen kind
	Name     string // e.g. "RW", "RWR", "asv-9"; Kind/Name is unique within a set
	Adjacent bool   // the events must run back to back in the schedule (data races)
	Atomic   bool   // sync/atomic accesses may match alone (never for races, which need a plain access)
	Chan     bool   // the events are channel operations: a send stands for r, a close for w
	// Acting: the events of the threads other than the first (the remote
	// events) are reads, and only atomic loads at acting read sites match
	// them: sites where a load decides a write of its own unit (a
	// check-then-act's check), in the same calling context (ptg.ActingLoads).
	// Such a pattern is about what the remote
	// goroutine does with the value it read, which only a trace shows.
	Acting bool
	// Lock: the events are lock acquisitions (Lock or RLock) and the
	// pattern a lock-order inversion (T=t1-t2-t1-t2 SV=s1-s2-s2-s1, AT
	// says nothing: w) or a recursive read lock behind a waiting writer
	// (T=t1-t2-t1 SV=s1-s1-s1 AT=r-w-r, RWWriter): predict finds these
	// itself (its inversion finder), not the access search.
	Lock bool
	// Leak: the events are two channel operations matched in the recorded
	// run, e1 a select's case (its select has another branch: a timeout,
	// ctx.Done(), default) and e2 its partner, which another schedule
	// strands: the select takes the other branch, and e2 blocks forever.
	// predict finds these itself (its leak finder), not the access search.
	Leak bool
	// Stolen (with Leak): a stolen partner. e2 and its partner p were
	// matched on an unbuffered channel in the recorded run; e1, another
	// goroutine's operation of e2's direction on that channel, takes p
	// first in another schedule, and nothing is left that could complete
	// e2 (competing receivers strand one, or competing senders). predict's
	// stolen-partner finder finds these.
	Stolen bool
	// Observed (with Leak): a leak the recorded run itself shows. e1 is
	// the channel operation a goroutine the test started was blocked in
	// when the test ended (trace.Trace.Blocked); check finds these from
	// the trace and the source (nothing to predict), and a replay of the
	// recorded order proves them.
	Observed bool
	// Cond: a lost condition-variable signal. e1 is the Signal (or
	// Broadcast) that woke a Cond.Wait of another goroutine in the
	// recorded run, e2 that Wait's entry (the unlock of c.L it records
	// before waiting). Another schedule runs e1 before e2: the signal
	// finds no waiter, and the Wait blocks forever. predict finds these
	// itself (its lost-signal finder), not the access search.
	Cond bool
	// WG: a WaitGroup.Add that can come after the Wait it was meant to
	// hold (the sync package: an Add from 0 must happen before Wait). e1
	// is a Wait of t1 that blocked on the counter in the recorded run, e2
	// the Add of t2 that raised it from 0. Another schedule runs the Wait
	// first: it finds 0 and returns at once, while t2's work is still to
	// come. predict finds these itself (its early-Wait finder), not the
	// access search.
	WG bool
	// Relock: a double lock that one schedule takes. One event is a
	// read, at a site that decides a branch leading to a Lock or RLock of
	// a mutex its goroutine holds there (the check's relock sites, from
	// the source), the other a write of another goroutine to the same
	// variable; the recorded run took the other path. AT=w-r: the write
	// came after the read, and another schedule runs it first; AT=r-w:
	// the read saw the write, and another schedule runs the read first,
	// on the older value. The reader then takes the branch and locks its
	// own mutex again, which never returns. predict finds these itself
	// (its double-lock finder), not the access search. With Lock
	// (AT=r-w only): the older value sends the reader, holding a mutex
	// the writer then waits for, into a lock the writer holds (a
	// lock-order inversion down a path the recorded run did not take).
	Relock bool
	// Order: an order violation between two critical sections of one
	// lock. e1 is the acquisition of t1's section, which came later in
	// the recorded run, e2 that of t2's earlier section, the two
	// conflicting on a variable or a channel (one of them writes or
	// closes it) and ordered by the lock alone. Another schedule runs
	// t1's whole section first. Both orders are serial, so only a panic
	// raised in the package's own code (not its tests) proves it: a nil
	// dereference, a second close. predict finds these itself (its
	// order-violation finder), not the access search.
	Order bool

	E         []string // event names (default e1..en)
	T, SV, AR []int    // normalized variables
	AT        []Access

	// Original variable names, indexed by normalized number: TNames[T[i]]
	// is the name of event i's thread. They only matter for printing; nil
	// names print as t1, t2, … (s1, … and u1, …).
	TNames, SVNames, ARNames []string

	// Pos says where the pattern was defined: "NAME:LINE:COL" for a parsed
	// pattern, "built-in set NAME" for a built-in one. Equal ignores it.
	Pos string
}

// Len returns the number of events.
func (p *Pattern) Len() int { return len(p.AT) }

// ID returns "Kind/Name", the pattern's identity within a set.
func (p *Pattern) ID() string { return p.Kind + "/" + p.Name }

// Threads returns the number of distinct threads.
func (p *Pattern) Threads() int { return distinct(p.T) }

// Vars returns the number of distinct shared variables.
func (p *Pattern) Vars() int { return distinct(p.SV) }

// Regions returns the number of distinct atomic regions.
func (p *Pattern) Regions() int { return distinct(p.AR) }

// distinct counts the values of a normalized sequence.
func distinct(s []int) int {
	n := 0
	for _, v := range s {
		if v+1 > n {
			n = v + 1
		}
	}
	return n
}

// ThreadName returns the name of event i's thread, and likewise VarName and
// RegionName.
func (p *Pattern) ThreadName(i int) string { return varName(p.TNames, p.T[i], "t") }

// VarName returns the name of event i's shared variable.
func (p *Pattern) VarName(i int) string { return varName(p.SVNames, p.SV[i], "s") }

// RegionName returns the name of event i's atomic region.
func (p *Pattern) RegionName(i int) string { return varName(p.ARNames, p.AR[i], "u") }

// EventName returns the name of event i.
func (p *Pattern) EventName(i int) string {
	if i < len(p.E) && p.E[i] != "" {
		return p.E[i]
	}
	return defaultEvent(i)
}

func varName(names []string, k int, prefix string) string {
	if k >= 0 && k < len(names) && names[k] != "" {
		return names[k]
	}
	return prefix + strconv.Itoa(k+1)
}

func defaultEvent(i int) string { return "e" + strconv.Itoa(i+1) }

// String returns the pattern in its canonical text form, which Parse turns
// back into an equal pattern (with the same names):
//
//	kind/name [adjacent] [atomic] [chan] [acting] T=… SV=… AR=… AT=… [E=…]
//
// E is omitted when it is the default e1-…-en.
func (p *Pattern) String() string {
	var b strings.Builder
	b.WriteString(p.Kind)
	b.WriteByte('/')
	b.WriteString(p.Name)
	if p.Adjacent {
		b.WriteString(" adjacent")
	}
	if p.Atomic {
		b.WriteString(" atomic")
	}
	if p.Chan {
		b.WriteString(" chan")
	}
	if p.Acting {
		b.WriteString(" acting")
	}
	if p.Lock {
		b.WriteString(" lock")
	}
	if p.Leak {
		b.WriteString(" leak")
	}
	if p.Stolen {
		b.WriteString(" stolen")
	}
	if p.Observed {
		b.WriteString(" observed")
	}
	if p.Cond {
		b.WriteString(" cond")
	}
	if p.WG {
		b.WriteString(" wg")
	}
	if p.Relock {
		b.WriteString(" relock")
	}
	if p.Order {
		b.WriteString(" order")
	}
	seq := func(key string, n int, elem func(i int) string) {
		b.WriteByte(' ')
		b.WriteString(key)
		b.WriteByte('=')
		for i := range n {
			if i > 0 {
				b.WriteByte('-')
			}
			b.WriteString(elem(i))
		}
	}
	seq("T", len(p.T), p.ThreadName)
	seq("SV", len(p.SV), p.VarName)
	seq("AR", len(p.AR), p.RegionName)
	seq("AT", len(p.AT), func(i int) string { return p.AT[i].String() })
	if !p.defaultE() {
		seq("E", len(p.E), p.EventName)
	}
	return b.String()
}

// defaultE reports whether E is empty or e1, e2, …, en.
func (p *Pattern) defaultE() bool {
	for i, e := range p.E {
		if e != defaultEvent(i) {
			return false
		}
	}
	return true
}

// Describe returns a short human phrase for the pattern, e.g. "read–write
// race" or "write–read–read–write atomic-set serializability violation:
// W(u1,s1) R(u2,s1) R(u2,s2) W(u1,s2)". The events are written as
// ACCESS(region,variable); when a thread of the pattern has more than one
// region, as ACCESS(thread:region,variable).
func (p *Pattern) Describe() string {
	words := make([]string, p.Len())
	for i, a := range p.AT {
		words[i] = a.word()
	}
	var what string
	switch p.Kind {
	case "race":
		what = "race"
	case "av":
		what = "atomicity violation"
	case "asv":
		what = "atomic-set serializability violation"
	case "deadlock":
		if p.Observed {
			return "hang: a recorded run hung with every goroutine blocked for good, which a replay of its order repeats"
		}
		if p.Relock && p.Lock {
			return "lock-order inversion: a stale read sends a goroutine, holding a lock another goroutine waits for, into a lock that goroutine holds"
		}
		if p.Relock {
			return "double lock: a write of another goroutine sends a goroutine down a path that locks a mutex it holds"
		}
		if p.Cond {
			return "lost signal: a Cond's Signal comes before the Wait it was to wake, which then waits forever"
		}
		if p.RWWriter() {
			return "recursive read lock: a goroutine read-locks an RWMutex again while a writer waits for its first read lock"
		}
		if p.OnceRun() {
			return "deadlock through sync.Once: a goroutine holding a lock waits in Once.Do while another call of Do runs a function that waits for that lock"
		}
		return "lock-order inversion: two goroutines take two locks in opposite orders"
	case "leak":
		if p.Observed {
			return "goroutine leak: the recorded run ended its test with a goroutine blocked in a channel operation that nothing live can complete"
		}
		if p.Stolen {
			return "goroutine leak: another goroutine's channel operation takes a partner first and strands the one it was matched with"
		}
		return "goroutine leak: a select takes another branch and strands its partner's channel operation"
	case "order":
		if p.Order {
			return "order violation: another goroutine's critical section runs before one the recorded run ran first, and the package's code panics"
		}
		what = "order violation"
	case "sync":
		if p.WG {
			return "WaitGroup.Add after Wait: a Wait runs before the Add from 0 it was to wait for, and returns at once"
		}
		what = "sync misuse"
	default:
		what = strconv.Quote(p.Kind) + " pattern"
	}
	phrase := strings.Join(words, "–") + " " + what
	if p.Len() == 2 && p.Vars() == 1 && p.Threads() == 2 && p.Regions() == 2 {
		return phrase // the plain race shape: the phrase says it all
	}
	// Regions identify threads unless some thread has several regions.
	regionOf := map[int]int{}
	showThread := false
	for i := range p.Len() {
		if r, ok := regionOf[p.T[i]]; ok && r != p.AR[i] {
			showThread = true
		}
		regionOf[p.T[i]] = p.AR[i]
	}
	evs := make([]string, p.Len())
	for i, a := range p.AT {
		who := p.RegionName(i)
		if showThread {
			who = p.ThreadName(i) + ":" + who
		}
		evs[i] = strings.ToUpper(a.String()) + "(" + who + "," + p.VarName(i) + ")"
	}
	return phrase + ": " + strings.Join(evs, " ")
}

// Equal reports whether p and q define the same pattern: the same kind,
// name, options and normalized sequences. The spelling of variables and of
// event names, and Pos, are ignored.
func (p *Pattern) Equal(q *Pattern) bool {
	return p.Kind == q.Kind && p.Name == q.Name &&
		p.Adjacent == q.Adjacent && p.Atomic == q.Atomic && p.Chan == q.Chan && p.Acting == q.Acting && p.Lock == q.Lock && p.Leak == q.Leak && p.Stolen == q.Stolen && p.Observed == q.Observed && p.Cond == q.Cond && p.WG == q.WG && p.Relock == q.Relock && p.Order == q.Order &&
		slices.Equal(p.T, q.T) && slices.Equal(p.SV, q.SV) &&
		slices.Equal(p.AR, q.AR) && slices.Equal(p.AT, q.AT)
}

// SameShape reports whether p and q match the same instances: Equal but
// for Kind and Name (av/RWR and asv/asv-2 are one shape).
func (p *Pattern) SameShape(q *Pattern) bool {
	r := *q
	r.Kind, r.Name = p.Kind, p.Name
	return p.Equal(&r)
}

// Clone returns a deep copy of p.
func (p *Pattern) Clone() *Pattern {
	q := *p
	q.E = slices.Clone(p.E)
	q.T = slices.Clone(p.T)
	q.SV = slices.Clone(p.SV)
	q.AR = slices.Clone(p.AR)
	q.AT = slices.Clone(p.AT)
	q.TNames = slices.Clone(p.TNames)
	q.SVNames = slices.Clone(p.SVNames)
	q.ARNames = slices.Clone(p.ARNames)
	return &q
}

// Validate checks the invariants of a pattern built in memory (Parse only
// returns valid patterns): equal lengths (E may be nil), at least two events
// and two threads, normalized T, SV and AR, names (if any) matching the
// variable counts, each region used by one thread, R/W access types, distinct
// event names, and no Atomic race.
func (p *Pattern) Validate() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("pattern %s: %s", p.ID(), fmt.Sprintf(format, args...))
	}
	n := len(p.AT)
	for _, s := range []struct {
		key string
		n   int
	}{{"T", len(p.T)}, {"SV", len(p.SV)}, {"AR", len(p.AR)}} {
		if s.n != n {
			return fail("%s has %s but AT has %d", s.key, plural(s.n, "element"), n)
		}
	}
	if p.E != nil && len(p.E) != n {
		return fail("E has %s but AT has %d", plural(len(p.E), "element"), n)
	}
	if n < 2 {
		return fail("a pattern needs at least 2 events, this one has %d", n)
	}
	for _, s := range []struct {
		key   string
		seq   []int
		names []string
	}{{"T", p.T, p.TNames}, {"SV", p.SV, p.SVNames}, {"AR", p.AR, p.ARNames}} {
		next := 0
		for i, v := range s.seq {
			if v < 0 || v > next {
				return fail("%s is not normalized: element %d is %d, want at most %d", s.key, i+1, v, next)
			}
			if v == next {
				next++
			}
		}
		if s.names != nil {
			if len(s.names) != next {
				return fail("%s has %d variables but %d names", s.key, next, len(s.names))
			}
			if k := firstDup(s.names); k >= 0 {
				return fail("%s names variables %d and %d both %q", s.key, slices.Index(s.names, s.names[k])+1, k+1, s.names[k])
			}
		}
	}
	if p.Threads() < 2 {
		return fail("a pattern needs at least 2 threads")
	}
	threadOf := map[int]int{}
	for i, r := range p.AR {
		if t, ok := threadOf[r]; ok && t != p.T[i] {
			return fail("region %s is used by threads %s and %s; a region belongs to one thread",
				p.RegionName(i), varName(p.TNames, t, "t"), p.ThreadName(i))
		}
		threadOf[r] = p.T[i]
	}
	for i, a := range p.AT {
		if a != R && a != W {
			return fail("event %d has access type %v, want r or w", i+1, a)
		}
	}
	if k := firstDup(p.E); k >= 0 {
		return fail("duplicate event name %q in E", p.E[k])
	}
	for i, e := range p.E {
		if e == "" {
			return fail("event %d has an empty name", i+1)
		}
	}
	if p.Atomic && p.Kind == "race" {
		return fail("races never involve sync/atomic accesses")
	}
	if p.Acting {
		if err := p.actingErr(); err != "" {
			return fail("%s", err)
		}
	}
	if p.Lock {
		// The inversion finder (predict) knows one shape: two goroutines,
		// two locks, each taken first by one of them.
		if p.Adjacent || p.Atomic || p.Chan || p.Acting {
			return fail("a lock pattern takes no other option")
		}
		if !p.RWWriter() && !p.OnceRun() && !p.Relock && (!slices.Equal(p.T, []int{0, 1, 0, 1}) || !slices.Equal(p.SV, []int{0, 1, 1, 0})) {
			return fail("a lock pattern is a lock-order inversion (T=t1-t2-t1-t2 SV=s1-s2-s2-s1), a recursive read lock behind a writer (T=t1-t2-t1 SV=s1-s1-s1 AT=r-w-r) or a deadlock through sync.Once (T=t1-t2-t1 SV=s1-s2-s2 AT=w-w-w)")
		}
	}
	if p.Cond {
		// The lost-signal finder (predict) knows one shape: a signal and
		// the Wait it woke, two goroutines.
		if p.Adjacent || p.Atomic || p.Chan || p.Acting || p.Lock || p.Leak {
			return fail("a cond pattern takes no other option")
		}
		if !slices.Equal(p.T, []int{0, 1}) || !slices.Equal(p.SV, []int{0, 0}) {
			return fail("a cond pattern is a signal and the Wait it woke: T=t1-t2 SV=s1-s1")
		}
	}
	if p.Relock {
		// The double-lock finder (predict) knows one shape: a write and
		// the read it is moved before, two goroutines, one variable.
		if p.Adjacent || p.Atomic || p.Chan || p.Acting || p.Leak || p.Cond || p.WG {
			return fail("a relock pattern takes no other option than lock")
		}
		if !slices.Equal(p.T, []int{0, 1}) || !slices.Equal(p.SV, []int{0, 0}) {
			return fail("a relock pattern is a write and the read of another goroutine that decides a double lock: T=t1-t2 SV=s1-s1")
		}
		if len(p.AT) != 2 || p.AT[0] == p.AT[1] || p.AT[0] != R && p.AT[0] != W || p.AT[1] != R && p.AT[1] != W {
			return fail("a relock pattern is a write and a read, in either order: AT=w-r or AT=r-w")
		}
		if p.Lock && p.RelockRead() != 0 {
			// The stale-read inversion finder knows one order: the read,
			// then the write it read in the recorded run.
			return fail("a lock relock pattern is a stale read and the write it read: AT=r-w")
		}
	}
	if p.Order {
		// The order-violation finder (predict) knows one shape: two
		// acquisitions of one lock by two goroutines.
		if p.Adjacent || p.Atomic || p.Chan || p.Acting || p.Lock || p.Leak || p.Cond || p.WG || p.Relock {
			return fail("an order pattern takes no other option")
		}
		if !slices.Equal(p.T, []int{0, 1}) || !slices.Equal(p.SV, []int{0, 0}) {
			return fail("an order pattern is two critical sections of one lock, the later one moved first: T=t1-t2 SV=s1-s1")
		}
	}
	if p.WG {
		// The early-Wait finder (predict) knows one shape: a Wait and the
		// Add from 0 it blocked on, two goroutines, one WaitGroup.
		if p.Adjacent || p.Atomic || p.Chan || p.Acting || p.Lock || p.Leak || p.Cond {
			return fail("a wg pattern takes no other option")
		}
		if !slices.Equal(p.T, []int{0, 1}) || !slices.Equal(p.SV, []int{0, 0}) {
			return fail("a wg pattern is a Wait and the Add from 0 it blocked on: T=t1-t2 SV=s1-s1")
		}
	}
	if p.Leak {
		// The leak finder (predict) knows one shape: a select's case and
		// its partner, two goroutines, one channel.
		if p.Adjacent || p.Atomic || p.Chan || p.Acting || p.Lock {
			return fail("a leak pattern takes no other option")
		}
		if p.Observed {
			if p.Stolen || len(p.T) != 1 {
				return fail("an observed leak pattern is one blocked operation: T=t1 SV=s1, no option stolen")
			}
		} else if !slices.Equal(p.T, []int{0, 1}) || !slices.Equal(p.SV, []int{0, 0}) {
			return fail("a leak pattern is a select's case and its stranded partner: T=t1-t2 SV=s1-s1")
		}
	}
	if p.Stolen && !p.Leak {
		return fail("a stolen pattern is a leak: option leak")
	}
	if p.Observed && !p.Leak {
		return fail("an observed pattern is a leak: option leak")
	}
	return nil
}

// RelockRead returns the index of the read of a relock pattern.
func (p *Pattern) RelockRead() int {
	if p.Relock && len(p.AT) == 2 && p.AT[0] == R {
		return 0
	}
	return 1
}

// RWWriter reports whether p is the lock pattern of a recursive read
// lock behind a waiting writer: t1 holds an RWMutex for reading (e1), t2
// asks for it for writing (e2), t1 asks for it for reading again (e3).
func (p *Pattern) RWWriter() bool {
	return p.Lock && slices.Equal(p.T, []int{0, 1, 0}) && slices.Equal(p.SV, []int{0, 0, 0}) &&
		len(p.AT) == 3 && p.AT[0] == R && p.AT[1] == W && p.AT[2] == R
}

// OnceRun reports whether p is the lock pattern of a deadlock through
// sync.Once: t1 holds lock s1 (e1); t2's call of Do on Once s2 (e2), a
// lock held while the function runs, runs its function, which waits for
// s1; t1 then calls Do on s2 (e3) and waits for the function.
func (p *Pattern) OnceRun() bool {
	return p.Lock && !p.Relock && slices.Equal(p.T, []int{0, 1, 0}) && slices.Equal(p.SV, []int{0, 1, 1}) &&
		len(p.AT) == 3 && p.AT[0] == W && p.AT[1] == W && p.AT[2] == W
}

// RemoteReadsOnly reports whether the pattern's remote events (those of
// threads other than event 1's) may only be reads at acting read sites
// (Acting).
func (p *Pattern) RemoteReadsOnly() bool { return p.Acting }

// actingErr says why the Acting option does not fit p, or "".
func (p *Pattern) actingErr() string {
	if p.Adjacent || p.Chan {
		return "option acting does not go with adjacent or chan"
	}
	for i, a := range p.AT {
		if p.T[i] != p.T[0] && a != R {
			return fmt.Sprintf("option acting needs the remote events to be reads, event %d is a %s of thread %s", i+1, a.word(), p.ThreadName(i))
		}
	}
	return ""
}

// firstDup returns the index of the first element of s equal to an earlier
// one, or -1.
func firstDup(s []string) int {
	seen := make(map[string]bool, len(s))
	for i, x := range s {
		if seen[x] {
			return i
		}
		seen[x] = true
	}
	return -1
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Key identifies a report: for Adjacent two-event patterns (races) the
// unordered pair of (site, access) items; otherwise the ordered sequence of
// (site, access) items. sites[i] is the source site of the access bound to
// event i; the access of an item is the pattern's AT at that position. Items
// are encoded as ACCESS@SITE and joined by '|', e.g. "r@file.go:12|w@file.go:20".
// Patterns of different kinds with the same key are the same report. Key
// panics if len(sites) != p.Len().
func Key(p *Pattern, sites []string) string {
	if len(sites) != p.Len() {
		panic(fmt.Sprintf("pattern.Key: %d sites for pattern %s of %d events", len(sites), p.ID(), p.Len()))
	}
	// Built in one buffer: the static candidates make a key for every
	// instance they match (logrus: 0.12 s of its 0.64 s analysis).
	if p.Adjacent && len(sites) == 2 {
		a, b := p.AT[0].String()+"@"+sites[0], p.AT[1].String()+"@"+sites[1]
		if b < a {
			a, b = b, a
		}
		return a + "|" + b
	}
	n := 0
	for _, s := range sites {
		n += len(s) + 3
	}
	var b strings.Builder
	b.Grow(n)
	for i, s := range sites {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(p.AT[i].String())
		b.WriteByte('@')
		b.WriteString(s)
	}
	return b.String()
}

// KindName returns the words for a kind of anomaly: "data race",
// "atomicity violation", "atomic-set-serializability violation", or
// "<kind> anomaly" for a user kind.
func KindName(kind string) string {
	switch kind {
	case "race":
		return "data race"
	case "av":
		return "atomicity violation"
	case "asv":
		return "atomic-set-serializability violation"
	case "deadlock":
		return "lock-order inversion"
	case "leak":
		return "goroutine leak"
	case "sync":
		return "sync misuse"
	case "order":
		return "order violation"
	}
	return kind + " anomaly"
}
