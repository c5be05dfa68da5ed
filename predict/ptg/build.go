package ptg

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// builder computes clocks, locksets and regions in one pass in trace order.
type builder struct {
	gr  *Graph
	ng  int
	cur [][]uint32 // goroutine → current clock (own component included)
	// dirty[g]: cur[g] changed by a join since the last snapshot was taken.
	dirty []bool
	// joined: the rows of the snapshots that the event being processed
	// joined (its snapshot may share their chunks; snapClocks.appendRow).
	joined [][]uint32
	// pending[g]: events whose clocks g must join at its next event
	// (unbuffered receive → the event after the send).
	pending [][]int32
	seen    []int32 // goroutine → number of its events processed
	lockTop []int32 // goroutine → top lockset node
	// holderIdx: lock object → 1 + its index in hold (0: not locked yet);
	// a slice, not a map: every lock and unlock looks its lock up.
	holderIdx []int32
	hold      []holder
	unitDep   []int32
	region    []int32 // goroutine → open region id or -1
	inComp    []bool
	csAcc     []bool // goroutine → its outermost critical section so far contains an access
	chans     map[int32]*chanState
	wgs       map[int32][]int32 // wg → done events so far
	wgAdders  map[wgKey]bool    // (wg, goroutine) pairs where the goroutine added
	onces     map[int32]int32   // once → its first event
	conds     map[int32]int32   // cond → latest signal/broadcast
	atomics   map[int32]int32   // object → latest atomic store/rmw
	forkedBy  []int32           // goroutine → its fork event, -1
	lastEv    []int32           // goroutine → its latest event so far
	cta       []bool            // event → a load at an acting read site (ActingLoads); nil: the trace has no atomic loads
}

// fastAccess enables step's path for plain accesses (a variable for the
// test that compares it with the general path).
var fastAccess = true

type wgKey struct{ wg, g int32 }

type holder struct {
	writer  int32 // goroutine holding in write mode, -1
	readers map[int32]int
}

type chanState struct {
	sends, recvs []int32 // all sends and non-closed receives so far (trace order)
	closeEv      int32
	cap          int64
}

func newBuilder(gr *Graph) *builder {
	ng := gr.NG
	b := &builder{
		gr:       gr,
		ng:       ng,
		cur:      make([][]uint32, ng),
		dirty:    make([]bool, ng),
		pending:  make([][]int32, ng),
		seen:     make([]int32, ng),
		lockTop:  make([]int32, ng),
		unitDep:  make([]int32, ng),
		region:   make([]int32, ng),
		inComp:   make([]bool, ng),
		csAcc:    make([]bool, ng),
		chans:    map[int32]*chanState{},
		wgs:      map[int32][]int32{},
		wgAdders: map[wgKey]bool{},
		onces:    map[int32]int32{},
		conds:    map[int32]int32{},
		atomics:  map[int32]int32{},
		forkedBy: make([]int32, ng),
		lastEv:   make([]int32, ng),
	}
	gr.clk.init(ng)
	gr.snapRows = make([][]uint32, ng)
	gr.snapLoc = make([][]int32, ng)
	gr.splits = make([][]int32, ng)
	gr.takes = make([][]int32, ng)
	for g := 0; g < ng; g++ {
		b.cur[g] = make([]uint32, gr.clk.width())
		b.cur[g][g] = 1
		b.lockTop[g] = -1
		b.region[g] = -1
		b.forkedBy[g] = -1
		b.lastEv[g] = -1
	}
	return b
}

// isRelease reports whether events with op may be the source of a POR edge;
// the goroutine's own clock advances after them.
func isRelease(op trace.Op) bool {
	switch op {
	case trace.Read, trace.Write, trace.AtomicLoad,
		trace.Lock, trace.Unlock, trace.RLock, trace.RUnlock,
		trace.RegionBegin, trace.RegionEnd:
		return false
	}
	return true
}

// edge adds a POR edge into dst, which is always the event being
// processed: the edges arrive in order of their destination, and are kept
// as a sparse compressed row index rather than a map of slices (which
// allocated per edge).
func (b *builder) edge(src, dst int32) {
	gr := b.gr
	if k := len(gr.srcDst); k == 0 || gr.srcDst[k-1] != dst {
		gr.srcDst = append(gr.srcDst, dst)
		gr.srcOff = append(gr.srcOff, int32(len(gr.srcList)))
	}
	gr.srcList = append(gr.srcList, src)
	gr.hasSrc[dst>>6] |= 1 << (dst & 63)
}

// join merges the clock of src into goroutine g's current clock.
func (b *builder) join(g int32, src int32) {
	gr := b.gr
	sg := gr.Tr.Events[src].G
	c := b.cur[g]
	// src's clock: its own epoch plus what its goroutine knew at src.
	changed := false
	if e := gr.Epoch[src]; e > c[sg] {
		c[sg] = e
		changed = true
	}
	// The latest snapshot of sg at or before src (src is already
	// processed); its all-zero chunks raise nothing.
	if k := snapAt(gr.snapLoc[sg], gr.Local[src]); k >= 0 {
		sc := &gr.clk
		row := gr.snapRows[sg][k*sc.nch : (k+1)*sc.nch : (k+1)*sc.nch]
		if len(b.joined) < 4 {
			b.joined = append(b.joined, row)
		}
		for ci, ch := range row {
			if ch == 0 {
				continue
			}
			base := ci << sc.shift
			for j, v := range sc.chunk(ch) {
				if h := int32(base + j); v > c[base+j] && h != g && h != sg {
					c[base+j] = v
					changed = true
				}
			}
		}
	}
	if changed {
		b.dirty[g] = true
	}
}

func (b *builder) step(i int32) {
	gr := b.gr
	e := gr.Tr.Events[i]
	g := e.G
	l := b.seen[g]
	gr.Local[i] = l
	gr.byG.items[gr.byG.start[g]+l] = i
	b.seen[g]++
	b.lastEv[g] = i

	if fastAccess && (e.Op == trace.Read || e.Op == trace.Write) && (l > 0 || b.forkedBy[g] < 0) && len(b.pending[g]) == 0 &&
		!b.dirty[g] && (b.lockTop[g] >= 0 || b.unitDep[g] > 0) == b.inComp[g] {
		// A plain access with no incoming edge, most of the events: what
		// the general path below does for it, without its switches and
		// calls. It releases nothing (no epoch step), takes no snapshot
		// (no join), changes no lockset, and neither opens nor closes a
		// component (whether g is inside one is as after g's previous
		// event); the general path would take half of the build's time.
		gr.Epoch[i] = b.cur[g][g]
		top := b.lockTop[g]
		gr.Lock[i] = top
		if top >= 0 {
			b.csAcc[g] = true
		}
		if !b.inComp[g] {
			gr.Region[i] = -1
			return
		}
		r := b.region[g]
		if r < 0 {
			gr.Regs = append(gr.Regs, RegionInfo{G: g, First: i, Last: i})
			r = int32(len(gr.Regs) - 1)
			b.region[g] = r
		}
		gr.Region[i] = r
		gr.Regs[r].Last = i
		return
	}

	// Incoming edges.
	b.joined = b.joined[:0]
	if l == 0 {
		if f := b.forkedBy[g]; f >= 0 {
			b.edge(f, i)
			b.join(g, f)
		}
	}
	if p := b.pending[g]; len(p) > 0 {
		for _, src := range p {
			b.edge(src, i)
			b.join(g, src)
		}
		b.pending[g] = p[:0]
	}
	switch e.Op {
	case trace.Fork:
		c := e.Obj
		if b.seen[c] > 0 {
			gr.warnf(i, "goroutine %s forked after it already ran", gr.Tr.Goroutines[c])
		} else if b.forkedBy[c] >= 0 {
			gr.warnf(i, "goroutine %s forked twice", gr.Tr.Goroutines[c])
		} else {
			b.forkedBy[c] = i
		}
	case trace.Join:
		c := e.Obj
		if last := b.lastEv[c]; last >= 0 && c != g {
			b.edge(last, i)
			b.join(g, last)
		} else if c != g {
			gr.warnf(i, "join of goroutine %s, which has not run", gr.Tr.Goroutines[c])
		}
	case trace.Send, trace.Recv, trace.Close:
		b.chanOp(i, e)
	case trace.WGWait:
		for _, d := range b.wgs[e.Obj] {
			// A release by a goroutine that added to the WaitGroup itself
			// orders nothing: its Add may come after the Wait, which then
			// does not wait for it (WaitGroup.Add inside the goroutine).
			if dg := gr.Tr.Events[d].G; dg != g && b.wgAdders[wgKey{e.Obj, dg}] {
				continue
			}
			b.edge(d, i)
			b.join(g, d)
		}
	case trace.WGDone:
		b.wgs[e.Obj] = append(b.wgs[e.Obj], i)
	case trace.WGAdd:
		if e.Arg < 0 {
			b.wgs[e.Obj] = append(b.wgs[e.Obj], i)
		} else if e.Arg > 0 {
			b.wgAdders[wgKey{e.Obj, g}] = true
		}
	case trace.OnceDo:
		if f, ok := b.onces[e.Obj]; ok {
			b.edge(f, i)
			b.join(g, f)
		} else {
			b.onces[e.Obj] = i
		}
	case trace.CondSignal, trace.CondBroadcast:
		b.conds[e.Obj] = i
	case trace.CondWait:
		if s, ok := b.conds[e.Obj]; ok {
			b.edge(s, i)
			b.join(g, s)
		}
	case trace.AtomicLoad, trace.AtomicRMW, trace.AtomicStore:
		if e.Op != trace.AtomicStore && (b.cta == nil || !b.cta[i]) {
			if s, ok := b.atomics[e.Obj]; ok && gr.Tr.Events[s].G != g {
				b.edge(s, i)
				b.join(g, s)
			}
		}
		if e.Op != trace.AtomicLoad {
			b.atomics[e.Obj] = i
		}
	}

	// Clock of this event.
	if b.dirty[g] {
		gr.snapRows[g] = gr.clk.appendRow(gr.snapRows[g], b.cur[g], g, b.joined)
		gr.snapLoc[g] = append(gr.snapLoc[g], gr.Local[i])
		b.dirty[g] = false
	}
	gr.Epoch[i] = b.cur[g][g]
	if isRelease(e.Op) {
		b.cur[g][g]++
	}

	b.locks(i, e)
	b.regions(i, e)
}

func (b *builder) chanOp(i int32, e trace.Event) {
	gr := b.gr
	cs := b.chans[e.Obj]
	if cs == nil {
		cs = &chanState{closeEv: -1, cap: e.Arg}
		b.chans[e.Obj] = cs
	} else if cs.cap != e.Arg {
		gr.warnf(i, "channel %s used with capacity %d and %d", gr.Tr.Objects[e.Obj], cs.cap, e.Arg)
	}
	g := e.G
	switch e.Op {
	case trace.Send:
		if e.Flags&trace.FlagClosed != 0 {
			// It found the channel closed and panicked: it delivered
			// nothing, and the close is no happens-before edge to it (the
			// race detector reports the two as racing).
			return
		}
		k := len(cs.sends) // this is send number k (0-based)
		cs.sends = append(cs.sends, i)
		if cs.cap > 0 && k >= int(cs.cap) {
			r := k - int(cs.cap)
			if r < len(cs.recvs) {
				b.edge(cs.recvs[r], i)
				b.join(g, cs.recvs[r])
			} else {
				gr.warnf(i, "send on full channel %s before a receive made room", gr.Tr.Objects[e.Obj])
			}
		}
	case trace.Recv:
		if e.Flags&trace.FlagClosed != 0 {
			if cs.closeEv >= 0 {
				b.edge(cs.closeEv, i)
				b.join(g, cs.closeEv)
			} else {
				gr.warnf(i, "receive saw channel %s closed before its close", gr.Tr.Objects[e.Obj])
			}
			return
		}
		k := len(cs.recvs)
		cs.recvs = append(cs.recvs, i)
		if k >= len(cs.sends) {
			gr.warnf(i, "receive from channel %s before the matching send", gr.Tr.Objects[e.Obj])
			return
		}
		s := cs.sends[k]
		b.edge(s, i)
		b.join(g, s)
		if cs.cap == 0 {
			sg := gr.Tr.Events[s].G
			if b.lastEv[sg] != s {
				gr.warnf(i, "goroutine %s went on after an unbuffered send (event %d) before it was received",
					gr.Tr.Goroutines[sg], s+1)
			} else {
				b.pending[sg] = append(b.pending[sg], i)
			}
		}
	case trace.Close:
		if cs.closeEv >= 0 {
			gr.warnf(i, "channel %s closed twice", gr.Tr.Objects[e.Obj])
		} else {
			cs.closeEv = i
		}
	}
}

func (b *builder) holderOf(l int32) *holder {
	if b.holderIdx == nil {
		b.holderIdx = make([]int32, len(b.gr.Tr.Objects))
	}
	k := b.holderIdx[l] - 1
	if k < 0 {
		b.hold = append(b.hold, holder{writer: -1, readers: map[int32]int{}})
		k = int32(len(b.hold) - 1)
		b.holderIdx[l] = k + 1
	}
	return &b.hold[k]
}

func (b *builder) push(g, lock int32, mode uint8, acq int32) {
	gr := b.gr
	top := b.lockTop[g]
	parentSet := int32(0)
	depth := int16(1)
	if top >= 0 {
		parentSet = gr.nodes[top].set
		depth = gr.nodes[top].depth + 1
	}
	gr.nodes = append(gr.nodes, lockNode{
		lock: lock, mode: mode, depth: depth, parent: top, acq: acq,
		set: gr.sets.add(parentSet, lock, mode),
	})
	b.lockTop[g] = int32(len(gr.nodes) - 1)
}

func (b *builder) locks(i int32, e trace.Event) {
	gr := b.gr
	g := e.G
	switch e.Op {
	case trace.Lock, trace.RLock:
		if b.lockTop[g] < 0 {
			b.csAcc[g] = false
			if b.unitDep[g] == 1 {
				gr.takes[g] = append(gr.takes[g], gr.Local[i])
			}
		}
		h := b.holderOf(e.Obj)
		for n := b.lockTop[g]; n >= 0; n = gr.nodes[n].parent {
			if gr.nodes[n].lock == e.Obj {
				gr.warnf(i, "goroutine %s locks %s, which it already holds", gr.Tr.Goroutines[g], gr.Tr.Objects[e.Obj])
				gr.Unsafe[e.Obj] = true
				break
			}
		}
		if h.writer >= 0 && h.writer != g || e.Op == trace.Lock && len(h.readers) > 0 && !(len(h.readers) == 1 && h.readers[g] > 0) {
			gr.warnf(i, "lock %s acquired while another goroutine holds it", gr.Tr.Objects[e.Obj])
		}
		mode := uint8(modeW)
		if e.Op == trace.RLock {
			mode = modeR
			h.readers[g]++
		} else {
			h.writer = g
		}
		b.push(g, e.Obj, mode, i)
	case trace.Unlock, trace.RUnlock:
		want := uint8(modeW)
		if e.Op == trace.RUnlock {
			want = modeR
		}
		// Find the lock in the stack.
		var above []lockNode
		n := b.lockTop[g]
		for n >= 0 && !(gr.nodes[n].lock == e.Obj && gr.nodes[n].mode == want) {
			above = append(above, gr.nodes[n])
			n = gr.nodes[n].parent
		}
		if n < 0 {
			gr.warnf(i, "%s of %s, which goroutine %s does not hold", e.Op, gr.Tr.Objects[e.Obj], gr.Tr.Goroutines[g])
			break
		}
		h := b.holderOf(e.Obj)
		if want == modeR {
			if h.readers[g]--; h.readers[g] <= 0 {
				delete(h.readers, g)
			}
		} else {
			h.writer = -1
		}
		b.lockTop[g] = gr.nodes[n].parent
		if len(above) > 0 {
			gr.warnf(i, "non-nested unlock of %s (locks acquired later are still held); schedules involving it are not guaranteed sound", gr.Tr.Objects[e.Obj])
			gr.Unsafe[e.Obj] = true
			for k := len(above) - 1; k >= 0; k-- {
				gr.Unsafe[above[k].lock] = true
				b.push(g, above[k].lock, above[k].mode, above[k].acq)
			}
		}
	}
	gr.Lock[i] = b.lockTop[g]
	if e.Op.IsAccess() && b.lockTop[g] >= 0 {
		b.csAcc[g] = true
	}
	if e.Op.IsRelease() && b.lockTop[g] < 0 && b.csAcc[g] && b.unitDep[g] == 1 {
		gr.splits[g] = append(gr.splits[g], gr.Local[i])
	}
	// A release event's own lockset excludes the released lock (lockTop
	// already popped); an acquire's includes it.
}

func (b *builder) regions(i int32, e trace.Event) {
	gr := b.gr
	g := e.G
	switch e.Op {
	case trace.RegionBegin:
		b.unitDep[g]++
	case trace.RegionEnd:
		if b.unitDep[g] == 0 {
			gr.warnf(i, "region-end without region-begin in goroutine %s", gr.Tr.Goroutines[g])
		} else {
			b.unitDep[g]--
		}
	}
	inside := b.lockTop[g] >= 0 || b.unitDep[g] > 0
	// The event that closes the component (last unlock, last region-end)
	// still belongs to it.
	closing := !inside && b.inComp[g]
	opening := inside && !b.inComp[g]
	switch {
	case opening:
		b.inComp[g] = true
		b.region[g] = -1
	case closing:
		b.inComp[g] = false
	}
	if !b.inComp[g] && !closing {
		gr.Region[i] = -1
		return
	}
	if e.Op.EndsUnit() {
		gr.Region[i] = -1
		b.region[g] = -1
		return
	}
	if b.region[g] < 0 {
		gr.Regs = append(gr.Regs, RegionInfo{G: g, First: i, Last: i})
		b.region[g] = int32(len(gr.Regs) - 1)
	}
	r := b.region[g]
	gr.Region[i] = r
	gr.Regs[r].Last = i
	if closing {
		b.region[g] = -1
	}
}

func (b *builder) finish() {
	gr := b.gr
	for g := 0; g < b.ng; g++ {
		if b.lockTop[g] >= 0 && b.seen[g] > 0 {
			n := b.lockTop[g]
			gr.Warn = append(gr.Warn, "goroutine "+gr.Tr.Goroutines[g]+" ends holding "+gr.Tr.Objects[gr.nodes[n].lock])
		}
	}
}
