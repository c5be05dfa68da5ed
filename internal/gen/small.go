// Package gen generates feasible traces: small random ones for property
// tests, large realistic ones for benchmarks.
//
// Small makes traces for property tests against the oracle; Large and
// LargeStream make them for benchmarks. Every generated trace is a feasible
// execution: it is produced by simulating goroutines that run random
// programs, so channel, lock, WaitGroup, fork and join semantics hold by
// construction.
package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// SmallOptions configures Small. Zero values select the defaults.
type SmallOptions struct {
	MaxEvents  int // upper bound on the number of events (for MaxEvents ≥ 8); default 14
	Goroutines int // goroutines including main; default 2 or 3 at random
	Locations  int // shared plain locations; default 2 or 3 at random
	Locks      int // locks; default 1 or 2 at random

	NoLocks      bool
	NoAtomics    bool
	NoChannels   bool
	NoRegions    bool
	NoWaitGroups bool
	NoOnce       bool
	NoBeginEnd   bool // children never record begin/end
	// Counters makes three in four plain accesses atomic loads and updates
	// of one counter, most updates Adds whose result is discarded.
	Counters bool
}

// ins is one instruction of a goroutine's program.
type ins struct {
	op   trace.Op
	obj  string // object, or goroutine for fork/join; "" for none
	site string // "" for none
	arg  int64
	// flags of the event: an atomic-rmw at an even line is an Add (by site,
	// so that the random stream, and every other generated trace, stays
	// the same).
	flags uint8
}

// file hands out sites file:1, file:2, … — one per syntactic position.
type file struct {
	name string
	line int
}

func (f *file) next() string {
	f.line++
	return fmt.Sprintf("%s:%d", f.name, f.line)
}

type smallGen struct {
	rng                        *rand.Rand
	opt                        SmallOptions
	nLocs, nLocks              int
	atomics, regions, onceUsed bool
}

// Small returns a random small valid trace: 2–3 goroutines (main forks the
// others and may join them at the end), at most opt.MaxEvents events, a few
// shared locations with plain and atomic accesses, properly nested lock
// sections (sometimes read-locked), occasional channel handoffs (buffered or
// unbuffered, sometimes closed), region-begin/end units, WaitGroups and
// sync.Once. Sites name syntactic positions; two children sometimes run the
// same code and so share sites.
func Small(rng *rand.Rand, opt SmallOptions) *trace.Trace {
	if opt.MaxEvents <= 0 {
		opt.MaxEvents = 14
	}
	var last *trace.Trace
	for range 50 {
		tr, ok := smallOnce(rng, opt)
		if ok {
			return tr
		}
		last = tr // a deadlocked run: still a feasible prefix
	}
	return last
}

func smallOnce(rng *rand.Rand, opt SmallOptions) (*trace.Trace, bool) {
	g := &smallGen{rng: rng, opt: opt}
	nG := opt.Goroutines
	if nG <= 0 {
		nG = 2 + rng.IntN(2)
	}
	g.nLocs = opt.Locations
	if g.nLocs <= 0 {
		g.nLocs = 2 + rng.IntN(2)
	}
	g.nLocks = opt.Locks
	if g.nLocks <= 0 {
		g.nLocks = 1 + rng.IntN(2)
	}
	if opt.NoLocks {
		g.nLocks = 0
	}
	g.atomics = !opt.NoAtomics && rng.IntN(2) == 0
	g.regions = !opt.NoRegions && (rng.IntN(3) != 0 || opt.Counters)
	g.onceUsed = !opt.NoOnce && rng.IntN(8) == 0

	children := nG - 1
	size := opt.MaxEvents - rng.IntN(opt.MaxEvents/3+1) // vary the length a little
	budget := size - children                           // the forks
	// Optional parts only if every goroutine keeps one statement.
	join := rng.IntN(2) == 0 && budget-children >= nG
	if join {
		budget -= children
	}
	beginEnd := make([][2]bool, nG)
	if !opt.NoBeginEnd {
		for c := 1; c < nG; c++ {
			for k := range 2 {
				if rng.IntN(2) == 0 && budget > nG {
					beginEnd[c][k] = true
					budget--
				}
			}
		}
	}
	// WaitGroup: main adds, participating children signal, main waits.
	wgKids := 0
	if !opt.NoWaitGroups && children > 0 && rng.IntN(4) == 0 && budget >= 2+children+nG {
		wgKids = 1 + rng.IntN(children)
		budget -= 2 + wgKids
	}
	// Channel: sender, receiver, messages, close.
	type chanPlan struct {
		on         bool
		cap        int64
		from, to   int
		msgs       int
		closeAfter bool
	}
	var ch chanPlan
	if !opt.NoChannels && nG > 1 && rng.IntN(3) == 0 {
		ch = chanPlan{on: true, cap: int64([]int{0, 0, 1, 2}[rng.IntN(4)]), msgs: 1 + rng.IntN(2)}
		ch.from = rng.IntN(nG)
		ch.to = (ch.from + 1 + rng.IntN(nG-1)) % nG
		ch.closeAfter = rng.IntN(3) == 0
		cost := 2 * ch.msgs
		if ch.closeAfter {
			cost += 2
		}
		if budget-cost >= nG {
			budget -= cost
		} else {
			ch.on = false
		}
	}
	if budget < nG {
		budget = nG
	}

	// Bodies. Children 1 and 2 may run the same code (shared sites).
	share := nG >= 3 && budget >= nG && rng.IntN(2) == 0
	sizes := split(rng, budget, nG)
	if share { // child 2's body costs as much as child 1's
		c := 1 + rng.IntN((budget-nG+3-1)/2)
		sizes = append([]int{budget - 2*c - (nG - 3)}, c, c)
		sizes = append(sizes, split(rng, nG-3, nG-3)...)
	}
	files := []*file{{name: "main.go"}, {name: "worker.go"}}
	for c := 2; c < nG; c++ {
		files = append(files, &file{name: fmt.Sprintf("worker%d.go", c)})
	}
	bodies := make([][]ins, nG)
	pre := 0
	if sizes[0] > 1 && rng.IntN(3) == 0 {
		pre = 1
	}
	mainPre := g.stmts(files[0], pre, 0)
	bodies[0] = g.stmts(files[0], sizes[0]-pre, 0)
	for c := 1; c < nG; c++ {
		if c == 2 && share {
			bodies[2] = slices.Clone(bodies[1])
			continue
		}
		bodies[c] = g.stmts(files[c], sizes[c], 0)
	}
	fileOf := func(gi int) *file {
		if gi == 2 && share {
			return files[1]
		}
		return files[gi]
	}

	// Insert channel operations at random positions of the bodies.
	if ch.on {
		chName := "ch"
		var sends, recvs []ins
		for range ch.msgs {
			sends = append(sends, ins{op: trace.Send, obj: chName, site: fileOf(ch.from).next(), arg: ch.cap})
			recvs = append(recvs, ins{op: trace.Recv, obj: chName, site: fileOf(ch.to).next(), arg: ch.cap})
		}
		if ch.closeAfter {
			sends = append(sends, ins{op: trace.Close, obj: chName, site: fileOf(ch.from).next(), arg: ch.cap})
			recvs = append(recvs, ins{op: trace.Recv, obj: chName, site: fileOf(ch.to).next(), arg: ch.cap})
		}
		bodies[ch.from] = insertOrdered(rng, bodies[ch.from], sends)
		bodies[ch.to] = insertOrdered(rng, bodies[ch.to], recvs)
	}

	// Assemble the programs.
	progs := make([][]ins, nG)
	name := func(gi int) string {
		if gi == 0 {
			return "main"
		}
		return fmt.Sprintf("g%d", gi)
	}
	mp := slices.Clone(mainPre)
	if wgKids > 0 {
		mp = append(mp, ins{op: trace.WGAdd, obj: "wg", site: files[0].next(), arg: int64(wgKids)})
	}
	for c := 1; c < nG; c++ {
		mp = append(mp, ins{op: trace.Fork, obj: name(c), site: files[0].next()})
	}
	mp = append(mp, bodies[0]...)
	if wgKids > 0 {
		mp = append(mp, ins{op: trace.WGWait, obj: "wg", site: files[0].next()})
	}
	if join {
		for c := 1; c < nG; c++ {
			mp = append(mp, ins{op: trace.Join, obj: name(c), site: files[0].next()})
		}
	}
	progs[0] = mp
	for c := 1; c < nG; c++ {
		var p []ins
		if beginEnd[c][0] {
			p = append(p, ins{op: trace.Begin})
		}
		p = append(p, bodies[c]...)
		if c <= wgKids {
			if rng.IntN(3) == 0 {
				p = append(p, ins{op: trace.WGAdd, obj: "wg", site: fileOf(c).next(), arg: -1})
			} else {
				p = append(p, ins{op: trace.WGDone, obj: "wg", site: fileOf(c).next()})
			}
		}
		if beginEnd[c][1] {
			p = append(p, ins{op: trace.End})
		}
		progs[c] = p
	}
	names := make([]string, nG)
	for i := range names {
		names[i] = name(i)
	}
	return simulate(rng, names, progs)
}

// split divides total into n parts of at least one each (if total allows).
func split(rng *rand.Rand, total, n int) []int {
	parts := make([]int, n)
	for i := range parts {
		if total > 0 {
			parts[i] = 1
			total--
		}
	}
	for ; total > 0; total-- {
		parts[rng.IntN(n)]++
	}
	return parts
}

// insertOrdered inserts xs into body at random positions, keeping their order.
func insertOrdered(rng *rand.Rand, body, xs []ins) []ins {
	at := make([]int, len(xs))
	for i := range at {
		at[i] = rng.IntN(len(body) + 1)
	}
	slices.Sort(at)
	out := make([]ins, 0, len(body)+len(xs))
	j := 0
	for i := 0; i <= len(body); i++ {
		for j < len(xs) && at[j] == i {
			out = append(out, xs[j])
			j++
		}
		if i < len(body) {
			out = append(out, body[i])
		}
	}
	return out
}

var regionNames = []string{"T.Inc", "T.Get", "T.Swap"}

func locName(i int) string {
	if i < 4 {
		return []string{"x", "y", "z", "w"}[i]
	}
	return fmt.Sprintf("v%d", i)
}

func lockName(i int) string {
	if i == 0 {
		return "mu"
	}
	return fmt.Sprintf("mu%d", i+1)
}

// stmts returns random statements using exactly budget events. Locks are
// acquired in index order (only locks ≥ minLock), so programs cannot
// deadlock on locks alone.
func (g *smallGen) stmts(f *file, budget, minLock int) []ins {
	rng := g.rng
	var out []ins
	for budget > 0 {
		r := rng.IntN(100)
		switch {
		case r < 28 && budget >= 3 && minLock < g.nLocks:
			l := minLock + rng.IntN(g.nLocks-minLock)
			acq, rel := trace.Lock, trace.Unlock
			if rng.IntN(4) == 0 {
				acq, rel = trace.RLock, trace.RUnlock
			}
			inner := 1 + rng.IntN(budget-2)
			out = append(out, ins{op: acq, obj: lockName(l), site: f.next()})
			out = append(out, g.stmts(f, inner, l+1)...)
			out = append(out, ins{op: rel, obj: lockName(l), site: f.next()})
			budget -= inner + 2
		case r >= 28 && r < 42 && budget >= 3 && g.regions:
			u := regionNames[rng.IntN(len(regionNames))]
			inner := 1 + rng.IntN(budget-2)
			out = append(out, ins{op: trace.RegionBegin, obj: u, site: f.next()})
			out = append(out, g.stmts(f, inner, minLock)...)
			out = append(out, ins{op: trace.RegionEnd, obj: u, site: f.next()})
			budget -= inner + 2
		case r >= 42 && r < 50 && g.atomics:
			loc := "a"
			if rng.IntN(4) == 0 {
				loc = locName(rng.IntN(g.nLocs))
			}
			op := []trace.Op{trace.AtomicLoad, trace.AtomicStore, trace.AtomicRMW}[rng.IntN(3)]
			in := ins{op: op, obj: loc, site: f.next()}
			if op == trace.AtomicRMW && f.line%2 == 0 {
				in.flags = trace.FlagAdd
				if f.line%4 == 0 {
					in.flags |= trace.FlagUnused // a site's flags are fixed, as in code
				}
			}
			out = append(out, in)
			budget--
		case r >= 50 && r < 53 && g.onceUsed:
			out = append(out, ins{op: trace.OnceDo, obj: "once", site: f.next()})
			budget--
		case g.opt.Counters && rng.IntN(4) != 0:
			in := ins{op: trace.AtomicLoad, obj: "a", site: f.next()}
			if rng.IntN(3) > 0 {
				in.op = trace.AtomicRMW
				if f.line%4 != 0 {
					in.flags = trace.FlagAdd // by site, as in code
					if f.line%4 != 3 {
						in.flags |= trace.FlagUnused
					}
				}
			}
			out = append(out, in)
			budget--
		default:
			op := trace.Read
			if rng.IntN(2) == 0 {
				op = trace.Write
			}
			out = append(out, ins{op: op, obj: locName(rng.IntN(g.nLocs)), site: f.next()})
			budget--
		}
	}
	return out
}

// simulate runs the programs under a random scheduler and records the trace.
// It reports false if the run deadlocked (the trace is then a prefix).
func simulate(rng *rand.Rand, names []string, progs [][]ins) (*trace.Trace, bool) {
	tr := &trace.Trace{}
	in := trace.NewInterner(&tr.Tables)
	gid := make([]int32, len(names))
	for i, n := range names {
		gid[i], _ = in.Intern(trace.TabGoroutine, n)
	}
	type chState struct {
		buf     int64
		closed  bool
		handoff int // goroutine that must receive the pending unbuffered send, or -1
	}
	type lockSt struct {
		writer  int
		readers int
	}
	nG := len(progs)
	pc := make([]int, nG)
	started := make([]bool, nG)
	started[0] = true
	waitRecv := make([]bool, nG) // blocked after an unbuffered send until its receive
	chans := map[string]*chState{}
	locks := map[string]*lockSt{}
	wg := map[string]int64{}
	finished := func(i int) bool { return started[i] && pc[i] == len(progs[i]) }
	getCh := func(n string) *chState {
		c := chans[n]
		if c == nil {
			c = &chState{handoff: -1}
			chans[n] = c
		}
		return c
	}
	getLock := func(n string) *lockSt {
		l := locks[n]
		if l == nil {
			l = &lockSt{writer: -1}
			locks[n] = l
		}
		return l
	}
	gIndex := func(n string) int { return slices.Index(names, n) }
	enabled := func(i int) bool {
		if !started[i] || pc[i] == len(progs[i]) || waitRecv[i] {
			return false
		}
		x := progs[i][pc[i]]
		switch x.op {
		case trace.Lock:
			l := getLock(x.obj)
			return l.writer < 0 && l.readers == 0
		case trace.RLock:
			return getLock(x.obj).writer < 0
		case trace.Send:
			c := getCh(x.obj)
			if x.arg > 0 {
				return c.buf < x.arg
			}
			if c.handoff >= 0 {
				return false
			}
			for h := range progs {
				if h != i && started[h] && pc[h] < len(progs[h]) && !waitRecv[h] &&
					progs[h][pc[h]].op == trace.Recv && progs[h][pc[h]].obj == x.obj {
					return true
				}
			}
			return false
		case trace.Recv:
			c := getCh(x.obj)
			if x.arg > 0 {
				return c.buf > 0 || c.closed
			}
			return c.handoff == i || (c.handoff < 0 && c.closed)
		case trace.WGWait:
			return wg[x.obj] == 0
		case trace.Join:
			return finished(gIndex(x.obj))
		}
		return true
	}
	for {
		var ready []int
		for i := range progs {
			if enabled(i) {
				ready = append(ready, i)
			}
		}
		if len(ready) == 0 {
			break
		}
		i := ready[rng.IntN(len(ready))]
		x := progs[i][pc[i]]
		pc[i]++
		ev := trace.Event{G: gid[i], Op: x.op, Obj: trace.NoIndex, Site: trace.NoIndex, Arg: x.arg}
		if x.site != "" {
			ev.Site, _ = in.Intern(trace.TabSite, x.site)
		}
		switch x.op.Object() {
		case trace.ObjObject:
			ev.Obj, _ = in.Intern(trace.TabObject, x.obj)
		case trace.ObjGoroutine:
			ev.Obj, _ = in.Intern(trace.TabGoroutine, x.obj)
		}
		switch x.op {
		case trace.Lock:
			getLock(x.obj).writer = i
		case trace.RLock:
			getLock(x.obj).readers++
		case trace.Unlock:
			getLock(x.obj).writer = -1
		case trace.RUnlock:
			getLock(x.obj).readers--
		case trace.Fork:
			started[gIndex(x.obj)] = true
		case trace.Send:
			c := getCh(x.obj)
			if x.arg > 0 {
				c.buf++
				break
			}
			// Hand off to a goroutine blocked in a receive on this channel.
			var cands []int
			for h := range progs {
				if h != i && started[h] && pc[h] < len(progs[h]) && !waitRecv[h] &&
					progs[h][pc[h]].op == trace.Recv && progs[h][pc[h]].obj == x.obj {
					cands = append(cands, h)
				}
			}
			c.handoff = cands[rng.IntN(len(cands))]
			waitRecv[i] = true
		case trace.Recv:
			c := getCh(x.obj)
			switch {
			case x.arg > 0 && c.buf > 0:
				c.buf--
			case x.arg == 0 && c.handoff == i:
				c.handoff = -1
				for h := range waitRecv { // release the sender
					if waitRecv[h] && progs[h][pc[h]-1].obj == x.obj {
						waitRecv[h] = false
					}
				}
			default:
				ev.Flags = trace.FlagClosed
			}
		case trace.AtomicRMW:
			ev.Flags = x.flags
		case trace.Close:
			getCh(x.obj).closed = true
		case trace.WGAdd:
			wg[x.obj] += x.arg
		case trace.WGDone:
			wg[x.obj]--
		}
		tr.Events = append(tr.Events, ev)
	}
	for i := range progs {
		if !finished(i) {
			return tr, false
		}
	}
	return tr, true
}
