package gen

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// LargeOptions configures Large and LargeStream. Zero values select the
// defaults, except ChannelDensity, where 0 means no channel operations.
type LargeOptions struct {
	Events         int     // exact number of events; default 100000
	Goroutines     int     // goroutines including main; default 8
	Locations      int     // shared memory locations; default 64
	Locks          int     // locks; default 8
	ChannelDensity float64 // approximate fraction of events that are channel operations
	Seed           uint64
}

func (o *LargeOptions) defaults() {
	if o.Events <= 0 {
		o.Events = 100000
	}
	if o.Goroutines <= 0 {
		o.Goroutines = 8
	}
	if o.Locations <= 0 {
		o.Locations = 64
	}
	if o.Locks <= 0 {
		o.Locks = 8
	}
}

// Large returns a large valid trace; see LargeStream.
func Large(opt LargeOptions) *trace.Trace {
	opt.defaults()
	tr := &trace.Trace{Events: make([]trace.Event, 0, opt.Events)}
	var tabs *trace.Tables
	err := LargeStream(opt, func(e trace.Event, t *trace.Tables) error {
		tr.Events = append(tr.Events, e)
		tabs = t
		return nil
	})
	if err != nil {
		panic(err) // the callback never fails
	}
	if tabs != nil {
		tr.Tables = *tabs
	}
	return tr
}

// tins is one instruction of a method template.
type tins struct {
	op   trace.Op
	obj  int32 // object index; for a dynamic access, the first of its candidate locations
	site int32
	dyn  int32 // > 0: a dynamic access: the location is obj + k*stride, k < dyn, chosen per call
	step int32
}

// LargeStream generates a large valid trace of exactly opt.Events events and
// passes each event to emit as it is produced, with the tables (which are
// complete from the first event on and never change). It stops at the first
// error emit returns and returns it.
//
// The trace looks like a server: main adds to a WaitGroup and forks the
// workers; every goroutine repeatedly calls methods drawn from a fixed set of
// templates (so sites are shared between goroutines): most access locations
// inside critical sections of the lock that guards them (read-locked when
// they only read, sometimes with a nested section), some access locations
// unprotected, some use atomic counters; most methods are region-begin/end
// units. Between calls, goroutines hand values over buffered and unbuffered
// channels. At the end the workers signal the WaitGroup and end, and main
// waits and joins them.
func LargeStream(opt LargeOptions, emit func(e trace.Event, t *trace.Tables) error) error {
	opt.defaults()
	g := newLargeGen(opt)
	return g.run(emit)
}

type largeGen struct {
	opt  LargeOptions
	rng  *rand.Rand
	tabs trace.Tables

	templates [][]tins

	// object indices
	loc0, lock0, ch0, cnt0, wgObj int32
	nCh, nCnt                     int
	chCap                         []int64
	// site indices
	siteFork, siteWGAdd, siteWGDone, siteWGWait, siteJoin, siteFiller int32
	siteSend, siteRecv                                                int32 // + channel index

	// state
	writer  []int32 // per lock: goroutine holding it in write mode, or -1
	readers []int32
	buf     []int64
	gs      []lgState

	emitted, needed, chanEvents int
	emit                        func(e trace.Event, t *trace.Tables) error
	err                         error
}

type lgState struct {
	begun bool
	tmpl  int // current template, -1 when idle
	pc    int
}

var errStop = errors.New("stop")

func newLargeGen(opt LargeOptions) *largeGen {
	g := &largeGen{opt: opt, rng: rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))}
	in := trace.NewInterner(&g.tabs)
	obj := func(name string) int32 { i, _ := in.Intern(trace.TabObject, name); return i }
	site := func(name string) int32 { i, _ := in.Intern(trace.TabSite, name); return i }
	for i := range opt.Goroutines {
		name := "main"
		if i > 0 {
			name = fmt.Sprintf("g%d", i)
		}
		in.Intern(trace.TabGoroutine, name)
	}
	g.loc0 = int32(len(g.tabs.Objects))
	for i := range opt.Locations {
		obj(fmt.Sprintf("v%d", i))
	}
	g.lock0 = int32(len(g.tabs.Objects))
	for i := range opt.Locks {
		obj(fmt.Sprintf("mu%d", i))
	}
	g.nCh = max(1, opt.Goroutines/2)
	g.ch0 = int32(len(g.tabs.Objects))
	for i := range g.nCh {
		obj(fmt.Sprintf("ch%d", i))
		c := int64(0)
		if i%2 == 1 {
			c = 1 + g.rng.Int64N(4)
		}
		g.chCap = append(g.chCap, c)
	}
	g.nCnt = 4
	g.cnt0 = int32(len(g.tabs.Objects))
	for i := range g.nCnt {
		obj(fmt.Sprintf("cnt%d", i))
	}
	g.wgObj = obj("wg")
	g.siteWGAdd = site("main.go:10")
	g.siteFork = site("main.go:12")
	g.siteWGWait = site("main.go:15")
	g.siteJoin = site("main.go:16")
	g.siteWGDone = site("worker.go:3")
	g.siteFiller = site("worker.go:5")
	g.siteSend = int32(len(g.tabs.Sites))
	for i := range g.nCh {
		site(fmt.Sprintf("pipe.go:%d", 10*i+1))
	}
	g.siteRecv = int32(len(g.tabs.Sites))
	for i := range g.nCh {
		site(fmt.Sprintf("pipe.go:%d", 10*i+2))
	}

	// Method templates.
	const nTemplates = 32
	L, K := opt.Locations, opt.Locks
	line := map[string]int{}
	for t := range nTemplates {
		file := fmt.Sprintf("obj%d.go", t%6)
		method := obj(fmt.Sprintf("T%d.M%d", t%6, t))
		var code []tins
		add := func(op trace.Op, o int32) {
			line[file]++
			code = append(code, tins{op: op, obj: o, site: site(fmt.Sprintf("%s:%d", file, line[file]))})
		}
		// access adds an access to a location guarded by lock l (any
		// location if l < 0), fixed or chosen per call.
		access := func(l int, write bool) {
			op := trace.Read
			if write {
				op = trace.Write
			}
			first, n, stride := 0, L, 1
			if l >= 0 && l < L {
				first, n, stride = l, (L-l+K-1)/K, K
			}
			if g.rng.IntN(4) == 0 && n > 1 {
				add(op, g.loc0+int32(first))
				code[len(code)-1].dyn = int32(n)
				code[len(code)-1].step = int32(stride)
				return
			}
			add(op, g.loc0+int32(first+g.rng.IntN(n)*stride))
		}
		region := g.rng.IntN(5) != 0
		if region {
			add(trace.RegionBegin, method)
		}
		r := g.rng.IntN(100)
		if t < 3 { // every kind of method exists
			r = []int{85, 70, 95}[t]
		}
		l := g.rng.IntN(K)
		switch {
		case r < 60: // a locked method
			readOnly := g.rng.IntN(4) == 0
			if readOnly {
				add(trace.RLock, g.lock0+int32(l))
			} else {
				add(trace.Lock, g.lock0+int32(l))
			}
			n := 1 + g.rng.IntN(4)
			nestAt := -1
			if l < K-1 && g.rng.IntN(4) == 0 {
				nestAt = g.rng.IntN(n + 1)
			}
			for i := 0; i <= n; i++ {
				if i == nestAt {
					l2 := l + 1 + g.rng.IntN(K-l-1)
					add(trace.Lock, g.lock0+int32(l2))
					for range 1 + g.rng.IntN(2) {
						access(l2, g.rng.IntN(2) == 0)
					}
					add(trace.Unlock, g.lock0+int32(l2))
				}
				if i < n {
					access(l, !readOnly && g.rng.IntN(2) == 0)
				}
			}
			if readOnly {
				add(trace.RUnlock, g.lock0+int32(l))
			} else {
				add(trace.Unlock, g.lock0+int32(l))
			}
			if g.rng.IntN(10) == 0 {
				access(l, g.rng.IntN(3) == 0) // an unprotected access to a guarded location
			}
		case r < 80: // unprotected accesses
			for range 1 + g.rng.IntN(3) {
				access(-1, g.rng.IntN(2) == 0)
			}
		case r < 90: // atomic counters
			for i := range 1 + g.rng.IntN(2) {
				op := []trace.Op{trace.AtomicRMW, trace.AtomicRMW, trace.AtomicLoad, trace.AtomicStore}[g.rng.IntN(4)]
				if i == 0 && t == 0 {
					op = trace.AtomicRMW
				}
				add(op, g.cnt0+int32(g.rng.IntN(g.nCnt)))
			}
		default: // two critical sections in one unit: check-then-act
			add(trace.Lock, g.lock0+int32(l))
			access(l, false)
			add(trace.Unlock, g.lock0+int32(l))
			add(trace.Lock, g.lock0+int32(l))
			access(l, true)
			add(trace.Unlock, g.lock0+int32(l))
		}
		if region {
			add(trace.RegionEnd, method)
		}
		g.templates = append(g.templates, code)
	}

	g.writer = make([]int32, K)
	for i := range g.writer {
		g.writer[i] = -1
	}
	g.readers = make([]int32, K)
	g.buf = make([]int64, g.nCh)
	g.gs = make([]lgState, opt.Goroutines)
	for i := range g.gs {
		g.gs[i].tmpl = -1
	}
	g.gs[0].begun = true
	return g
}

func (g *largeGen) put(gi int, op trace.Op, obj, site int32, arg int64, flags uint8) {
	if g.err != nil {
		return
	}
	if g.emitted >= g.opt.Events {
		g.err = errStop
		return
	}
	g.emitted++
	if err := g.emit(trace.Event{G: int32(gi), Op: op, Flags: flags, Obj: obj, Site: site, Arg: arg}, &g.tabs); err != nil {
		g.err = err
	}
}

func (g *largeGen) run(emit func(e trace.Event, t *trace.Tables) error) error {
	g.emit = emit
	nG := g.opt.Goroutines
	children := nG - 1
	if children > 0 {
		g.put(0, trace.WGAdd, g.wgObj, g.siteWGAdd, int64(children), 0)
	}
	for c := 1; c < nG; c++ {
		g.put(0, trace.Fork, int32(c), g.siteFork, 0, 0)
	}
	// needed: events the drain will still emit: begins, the rest of the
	// current methods, wg-done and end per child, wg-wait and joins.
	g.needed = children + 2*children + children
	if children > 0 {
		g.needed++
	}
	for g.err == nil && g.emitted+g.needed < g.opt.Events {
		gi := g.rng.IntN(nG)
		for burst := 1 + g.rng.IntN(8); burst > 0 && g.err == nil && g.emitted+g.needed < g.opt.Events; burst-- {
			if !g.step(gi, true) {
				gi = (gi + 1) % nG // blocked: let another goroutine run
			}
		}
	}
	// Drain: finish the methods under way, then shut down.
	for g.err == nil {
		busy := 0
		for i := range g.gs {
			if !g.gs[i].begun || g.gs[i].tmpl >= 0 {
				busy++
			}
		}
		if busy == 0 {
			break
		}
		gi := g.rng.IntN(nG)
		for tries := 0; tries < nG; tries++ {
			if st := &g.gs[gi]; (!st.begun || st.tmpl >= 0) && g.step(gi, false) {
				break
			}
			gi = (gi + 1) % nG
		}
	}
	for c := 1; c < nG; c++ {
		g.put(c, trace.WGDone, g.wgObj, g.siteWGDone, 0, 0)
		g.put(c, trace.End, trace.NoIndex, trace.NoIndex, 0, 0)
	}
	if children > 0 {
		g.put(0, trace.WGWait, g.wgObj, g.siteWGWait, 0, 0)
	}
	for c := 1; c < nG; c++ {
		g.put(0, trace.Join, int32(c), g.siteJoin, 0, 0)
	}
	// Pad (only when the header alone exceeded the budget estimate).
	for g.err == nil && g.emitted < g.opt.Events {
		g.put(0, trace.Read, g.loc0, g.siteFiller, 0, 0)
	}
	if g.err == errStop {
		return nil
	}
	return g.err
}

// step runs one event (or an unbuffered handoff pair) of goroutine gi. It
// reports false if gi is blocked on a lock. fresh says whether gi may start
// new work when idle.
func (g *largeGen) step(gi int, fresh bool) bool {
	st := &g.gs[gi]
	if !st.begun {
		g.put(gi, trace.Begin, trace.NoIndex, trace.NoIndex, 0, 0)
		st.begun = true
		g.needed--
		return true
	}
	if st.tmpl < 0 {
		if !fresh {
			return false
		}
		room := g.opt.Events - g.emitted - g.needed
		if float64(g.chanEvents) < g.opt.ChannelDensity*float64(g.emitted) && g.chanOp(gi, room) {
			return true
		}
		t := g.rng.IntN(len(g.templates))
		if len(g.templates[t]) > room {
			g.put(gi, trace.Read, g.loc0+int32(g.rng.IntN(g.opt.Locations)), g.siteFiller, 0, 0)
			return true
		}
		st.tmpl, st.pc = t, 0
		g.needed += len(g.templates[t])
	}
	x := &g.templates[st.tmpl][st.pc]
	obj := x.obj
	switch x.op {
	case trace.Lock:
		l := x.obj - g.lock0
		if g.writer[l] >= 0 || g.readers[l] > 0 {
			return false
		}
		g.writer[l] = int32(gi)
	case trace.RLock:
		l := x.obj - g.lock0
		if g.writer[l] >= 0 {
			return false
		}
		g.readers[l]++
	case trace.Unlock:
		g.writer[x.obj-g.lock0] = -1
	case trace.RUnlock:
		g.readers[x.obj-g.lock0]--
	case trace.Read, trace.Write:
		if x.dyn > 0 {
			obj += int32(g.rng.IntN(int(x.dyn))) * x.step
		}
	}
	g.put(gi, x.op, obj, x.site, 0, 0)
	g.needed--
	st.pc++
	if st.pc == len(g.templates[st.tmpl]) {
		st.tmpl = -1
	}
	return true
}

// chanOp lets idle goroutine gi do a channel operation that cannot block:
// a send into a buffered channel with room, a receive from a buffered
// channel with data, or an unbuffered handoff to another idle goroutine
// (send immediately followed by the matching receive). It reports whether
// it did one.
func (g *largeGen) chanOp(gi, room int) bool {
	c := g.rng.IntN(g.nCh)
	obj, capc := g.ch0+int32(c), g.chCap[c]
	if capc > 0 {
		if g.buf[c] < capc && (g.buf[c] == 0 || g.rng.IntN(2) == 0) {
			g.buf[c]++
			g.put(gi, trace.Send, obj, g.siteSend+int32(c), capc, 0)
		} else {
			g.buf[c]--
			g.put(gi, trace.Recv, obj, g.siteRecv+int32(c), capc, 0)
		}
		g.chanEvents++
		return true
	}
	if room < 2 {
		return false
	}
	nG := len(g.gs)
	h := g.rng.IntN(nG)
	for range nG {
		if h != gi && g.gs[h].begun && g.gs[h].tmpl < 0 {
			g.put(gi, trace.Send, obj, g.siteSend+int32(c), 0, 0)
			g.put(h, trace.Recv, obj, g.siteRecv+int32(c), 0, 0)
			g.chanEvents += 2
			return true
		}
		h = (h + 1) % nG
	}
	return false
}
