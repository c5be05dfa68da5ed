package ptg

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// CheckThenAct marks, by event index, the atomic loads that start a
// check-then-act: the goroutine's next access of the same object is an
// atomic store or read-modify-write, inside the same unit of work (a
// region-begin/end unit or a critical section) with no boundary event
// (fork, join, channel operation, wg-wait, cond-wait) between them. Such a
// load takes no POR edge from the store it read: the pair is what an
// atomicity violation on the object interleaves (Load then Store of an
// atomic.Int64, sync.Map Load then Store of a key), and the schedule that
// moves the load before that store is worth a replay, which checks that
// the unit still acts as recorded (if the new value sends it another way,
// the replay diverges and nothing is reported). A load that no write of
// its own unit follows (a flag read, message passing) keeps its edge.
func CheckThenAct(tr *trace.Trace) []bool {
	mark, _ := checkThenAct(tr)
	return mark
}

// frame is one open region (a method call) of a goroutine: its
// region-begin event and the unit (method) it names.
type frame struct{ begin, unit int32 }

// regionStack is a goroutine's open regions, outermost first.
type regionStack []frame

// step updates st for event i, e of its goroutine. A RegionEnd closes the
// innermost region (RegionEnd is deferred, so panics keep them balanced).
func (st *regionStack) step(i int, e trace.Event) {
	switch e.Op {
	case trace.RegionBegin:
		*st = append(*st, frame{int32(i), e.Obj})
	case trace.RegionEnd:
		if n := len(*st); n > 0 {
			*st = (*st)[:n-1]
		}
	}
}

// checkThenAct is CheckThenAct, with the acting contexts of each site
// whose load started one: the units (method names), outermost first, from
// the call in which the load's value meets the write it decides (the
// innermost region open at both) down to the load's own. With no region
// open at both (a critical section outside any method), the context is
// the load's whole region stack: no frame can be told apart there.
func checkThenAct(tr *trace.Trace) ([]bool, map[int32][][]int32) {
	mark := make([]bool, len(tr.Events))
	ctx := map[int32][][]int32{}
	type pendingLoad struct {
		ev    int
		stack []frame // the load's open regions
	}
	type gstate struct {
		locks   int
		stack   regionStack
		pending map[int32]pendingLoad // object → latest load in the unit
	}
	gs := make([]gstate, len(tr.Goroutines))
	reset := func(s *gstate) {
		for k := range s.pending {
			delete(s.pending, k)
		}
	}
	for i, e := range tr.Events {
		if e.G < 0 || int(e.G) >= len(gs) {
			continue
		}
		s := &gs[e.G]
		s.stack.step(i, e)
		if e.Op.EndsUnit() {
			reset(s)
			continue
		}
		switch e.Op {
		case trace.RegionEnd:
			if len(s.stack) == 0 && s.locks == 0 {
				reset(s)
			}
		case trace.Lock, trace.RLock:
			s.locks++
		case trace.Unlock, trace.RUnlock:
			if s.locks > 0 {
				s.locks--
			}
			if len(s.stack) == 0 && s.locks == 0 {
				reset(s)
			}
		case trace.AtomicLoad:
			if len(s.stack) > 0 || s.locks > 0 {
				if s.pending == nil {
					s.pending = map[int32]pendingLoad{}
				}
				s.pending[e.Obj] = pendingLoad{i, append([]frame(nil), s.stack...)}
			}
		case trace.AtomicStore, trace.AtomicRMW:
			l, ok := s.pending[e.Obj]
			if !ok {
				continue
			}
			mark[l.ev] = true
			delete(s.pending, e.Obj)
			site := tr.Events[l.ev].Site
			if site < 0 {
				continue
			}
			k := 0
			for k < len(l.stack) && k < len(s.stack) && l.stack[k] == s.stack[k] {
				k++
			}
			if k > 0 {
				k--
			}
			units := make([]int32, 0, len(l.stack)-k)
			for _, f := range l.stack[k:] {
				units = append(units, f.unit)
			}
			if !slices.ContainsFunc(ctx[site], func(c []int32) bool { return slices.Equal(c, units) }) {
				ctx[site] = append(ctx[site], units)
			}
		}
	}
	return mark, ctx
}

// ActingLoads marks, by event index, the check-then-act loads
// (CheckThenAct) and the atomic loads at the same site and in the same
// calling context, whether or not their own unit acted in this run: the
// check of a goroutine that saw the key present and returned is the same
// check as the one that saw it absent and stored. The context is the
// chain of calls from the one where the value decided a write down to the
// load (checkThenAct), which the other load's region stack must end with:
// a getter whose load one caller acts on is no check where another caller
// only reads it (a test's pool.RunningWorkers() is no purger's check).
// Like a check-then-act load, such a load takes no POR edge from the store
// it read, so that a schedule may move it before that store (av/RRW: both
// checks see the old value); replay then shows whether its goroutine acts
// on what it read.
func ActingLoads(tr *trace.Trace) []bool {
	mark := actingLoads(tr)
	keepDereferenced(tr, mark)
	return mark
}

func actingLoads(tr *trace.Trace) []bool {
	mark, ctx := checkThenAct(tr)
	if len(ctx) == 0 {
		return mark
	}
	stacks := make([]regionStack, len(tr.Goroutines))
	for i, e := range tr.Events {
		if e.G < 0 || int(e.G) >= len(stacks) {
			continue
		}
		st := &stacks[e.G]
		st.step(i, e)
		if mark[i] || e.Op != trace.AtomicLoad || e.Site < 0 {
			continue
		}
		for _, c := range ctx[e.Site] {
			if endsWith(*st, c) {
				mark[i] = true
				break
			}
		}
	}
	return mark
}

// endsWith reports whether the innermost frames of st are the units c.
func endsWith(st regionStack, c []int32) bool {
	if len(c) > len(st) {
		return false
	}
	st = st[len(st)-len(c):]
	for i, u := range c {
		if st[i].unit != u {
			return false
		}
	}
	return true
}

// keepDereferenced unmarks the acting loads whose unit goes on to access
// an object that the goroutine of the store they read created and then
// published (its first access was that goroutine's write, followed by a
// release of that goroutine at or before the store): the load is then
// most likely the one that loaded the pointer to it (a CAS loop's
// snapshot: old := p.Load(); … old.last …). Moved before the store, the
// load would load another pointer and its unit would read another object,
// so no run reads the fresh object's fields between the writes that build
// it, nor both the older pointer and the newer object: such a load keeps
// its edge. An object created after the store (or never released) is no
// sign, nor one that another goroutine accessed before its creator wrote
// it (a variable that was there before), nor an access after the load's
// unit (its innermost region, or its critical section outside any).
func keepDereferenced(tr *trace.Trace, mark []bool) {
	if !slices.Contains(mark, true) {
		return
	}
	creator := make([]int32, len(tr.Objects)) // object → 1 + goroutine of its first access if a write; -1 otherwise; 0 not seen
	pub := make([]int32, len(tr.Objects))     // object → 1 + its creator's first release after the creation; 0 none yet
	fresh := make([][]int32, len(tr.Goroutines))
	latest := map[int32]int32{} // atomic object → its latest store or read-modify-write
	// open[g]: g's latest acting load that skipped a store of another
	// goroutine, while the unit it is in stays open.
	type openLoad struct {
		load, store int32
		depth       int // the load's region depth; 0: its unit is its critical section
	}
	open := make([]*openLoad, len(tr.Goroutines))
	depth := make([]int, len(tr.Goroutines))
	locks := make([]int, len(tr.Goroutines))
	for i, e := range tr.Events {
		g := e.G
		if g < 0 || int(g) >= len(depth) {
			continue
		}
		switch e.Op {
		case trace.RegionBegin:
			depth[g]++
		case trace.RegionEnd:
			if depth[g] > 0 {
				depth[g]--
			}
			if o := open[g]; o != nil && depth[g] < o.depth {
				open[g] = nil
			}
		case trace.Lock, trace.RLock:
			locks[g]++
		case trace.Unlock, trace.RUnlock:
			if locks[g] > 0 {
				locks[g]--
			}
			if o := open[g]; o != nil && o.depth == 0 && locks[g] == 0 {
				open[g] = nil
			}
		case trace.AtomicLoad:
			if s, ok := latest[e.Obj]; ok && mark[i] && tr.Events[s].G != g && (depth[g] > 0 || locks[g] > 0) {
				open[g] = &openLoad{int32(i), s, depth[g]}
			}
		case trace.Read, trace.Write:
			if e.Obj < 0 || int(e.Obj) >= len(creator) {
				break
			}
			switch c := creator[e.Obj]; {
			case c == 0 && e.Op == trace.Write:
				creator[e.Obj] = g + 1
				fresh[g] = append(fresh[g], e.Obj)
			case c == 0:
				creator[e.Obj] = -1
			case c > 0 && c-1 != g:
				o := open[g]
				if o != nil && tr.Events[o.store].G == c-1 && pub[e.Obj] > 0 && pub[e.Obj]-1 <= o.store {
					mark[o.load] = false
					open[g] = nil
				}
			}
		}
		if e.Op == trace.AtomicStore || e.Op == trace.AtomicRMW {
			latest[e.Obj] = int32(i)
		}
		if isRelease(e.Op) {
			for _, o := range fresh[g] {
				pub[o] = int32(i) + 1
			}
			fresh[g] = fresh[g][:0]
		}
	}
}
