package symbolic

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// builder computes the own sequences of a package's functions.
type builder struct {
	pass       *analysis.Pass
	r          *Result
	closures   map[*ssa.Function]*ssa.MakeClosure // anonymous function → (first) closure creating it
	escMemo    map[ssa.Value][]ssa.Instruction
	escOK      map[ssa.Value]bool
	facts      map[*types.Func]*Summary
	concurrent bool
}

func newBuilder(pass *analysis.Pass, r *Result) *builder {
	b := &builder{
		pass:     pass,
		r:        r,
		closures: map[*ssa.Function]*ssa.MakeClosure{},
		escMemo:  map[ssa.Value][]ssa.Instruction{},
		escOK:    map[ssa.Value]bool{},
		facts:    map[*types.Func]*Summary{},
	}
	for _, f := range r.Funcs {
		for _, blk := range f.Fn.Blocks {
			for _, in := range blk.Instrs {
				if mc, ok := in.(*ssa.MakeClosure); ok {
					if fn, ok := mc.Fn.(*ssa.Function); ok && b.closures[fn] == nil {
						b.closures[fn] = mc
					}
				}
			}
		}
	}
	return b
}

// ensure computes f's own events, lock effect and lockset annotations.
// Recursive calls (f in progress) see no lock effect.
func (b *builder) ensure(f *Func) {
	if f.state != 0 {
		return
	}
	f.state = 1
	defer func() { f.state = 2 }()
	fn := f.Fn
	if len(fn.Blocks) == 0 {
		return
	}

	// Instruction numbering: CS ids are 1 + the instruction's ordinal.
	f.blockBase = make([]int32, len(fn.Blocks))
	var n int32
	for i, blk := range fn.Blocks {
		f.blockBase[i] = n
		n += int32(len(blk.Instrs))
	}
	f.numInstrs = n

	// Classify every instruction once; the protos are events without
	// Held and path.
	protos := make([][][]Event, len(fn.Blocks))
	var defers [][]Event
	for i, blk := range fn.Blocks {
		protos[i] = make([][]Event, len(blk.Instrs))
		for j, in := range blk.Instrs {
			evs := b.classify(f, in)
			if _, ok := in.(*ssa.Defer); ok {
				for k := range evs {
					evs[k].Deferred = true
				}
				defers = append(defers, evs)
				continue
			}
			protos[i][j] = evs
		}
	}

	in := b.locksets(f, protos)

	// Locks released by deferred calls are not held after return.
	deferUnlocked := map[string]bool{}
	for _, d := range defers {
		for _, e := range d {
			if e.Op == OpUnlock || e.Op == OpRUnlock {
				deferUnlocked[e.Loc] = true
			}
		}
	}

	var acquires []Held
	sawReturn := false
	releases := map[string]bool{}
	for bi, blk := range fn.Blocks {
		state := in[bi]
		for ii, instr := range blk.Instrs {
			base := f.blockBase[bi] + int32(ii) + 1
			switch instr.(type) {
			case *ssa.RunDefers:
				st := state
				for k := len(defers) - 1; k >= 0; k-- {
					for _, e := range defers[k] {
						e.Held = st
						e.path = []step{{f, int32(bi), int32(ii)}, {f, -1, int32(len(defers) - 1 - k)}}
						f.Events = append(f.Events, e)
						st = transfer(st, &e, base, releases)
					}
				}
			case *ssa.Return:
				var out []Held
				for _, h := range state {
					if !deferUnlocked[h.Lock] {
						out = append(out, h)
					}
				}
				if !sawReturn {
					acquires, sawReturn = out, true
				} else {
					acquires = meet(acquires, out)
				}
			}
			for _, e := range protos[bi][ii] {
				e.Held = state
				e.path = []step{{f, int32(bi), int32(ii)}}
				f.Events = append(f.Events, e)
				state = transfer(state, &e, base, releases)
			}
		}
	}
	f.markRepeats()
	f.Acquires = acquires
	for l := range releases {
		f.Releases = append(f.Releases, l)
	}
	slices.Sort(f.Releases)
	for i := range f.Events {
		if f.Events[i].Op.IsSync() {
			b.concurrent = true
		}
	}
}

// locksets runs the must-held lockset dataflow over f's CFG and returns the
// lockset at the entry of every block. Unreachable blocks (e.g. the
// recover block) start empty.
func (b *builder) locksets(f *Func, protos [][][]Event) [][]Held {
	fn := f.Fn
	nb := len(fn.Blocks)
	in := make([][]Held, nb)
	seen := make([]bool, nb)
	seen[0] = true
	work := []int{0}
	queued := make([]bool, nb)
	queued[0] = true
	for len(work) > 0 {
		bi := work[0]
		work = work[1:]
		queued[bi] = false
		blk := fn.Blocks[bi]
		state := in[bi]
		for ii := range blk.Instrs {
			base := f.blockBase[bi] + int32(ii) + 1
			for k := range protos[bi][ii] {
				state = transfer(state, &protos[bi][ii][k], base, nil)
			}
		}
		for si, succ := range blk.Succs {
			out := state
			if si == 0 {
				out = tryLockEdge(f, blk, protos[bi], out)
			}
			s := succ.Index
			var next []Held
			if !seen[s] {
				seen[s] = true
				next = out
			} else {
				next = meet(in[s], out)
				if slices.Equal(next, in[s]) {
					continue
				}
			}
			in[s] = next
			if !queued[s] {
				queued[s] = true
				work = append(work, s)
			}
		}
	}
	return in
}

// tryLockEdge adds the lock of a TryLock/TryRLock whose result is the
// condition of blk's If to the lockset of the true edge.
func tryLockEdge(f *Func, blk *ssa.BasicBlock, protos [][]Event, state []Held) []Held {
	if len(blk.Instrs) == 0 {
		return state
	}
	iff, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
	if !ok {
		return state
	}
	call, ok := iff.Cond.(*ssa.Call)
	if !ok || call.Block() != blk {
		return state
	}
	for ii, in := range blk.Instrs {
		if in != call {
			continue
		}
		for _, e := range protos[ii] {
			if e.TryLock {
				id := f.blockBase[blk.Index] + int32(ii) + 1
				return setHeld(state, Held{Lock: e.Loc, Read: e.Op == OpRLock, CS: id})
			}
		}
	}
	return state
}

// transfer applies e's effect on the lockset. Deferred operations and
// TryLocks (handled on the If edge) have none. base is the CS id of the
// instruction. releases, if not nil, collects locks released while not held.
func transfer(state []Held, e *Event, base int32, releases map[string]bool) []Held {
	if e.Deferred {
		if releases != nil && (e.Op == OpUnlock || e.Op == OpRUnlock) && !holds(state, e.Loc) {
			releases[e.Loc] = true
		}
		return state
	}
	switch e.Op {
	case OpLock, OpRLock:
		if e.TryLock {
			return state
		}
		return setHeld(state, Held{Lock: e.Loc, Read: e.Op == OpRLock, CS: base})
	case OpUnlock, OpRUnlock:
		if releases != nil && !holds(state, e.Loc) {
			releases[e.Loc] = true
		}
		return delHeld(state, e.Loc)
	case OpCall:
		var acq []Held
		var rel []string
		switch {
		case e.fn != nil && e.fn.state == 2:
			acq, rel = e.fn.Acquires, e.fn.Releases
		case e.sum != nil:
			acq, rel = e.sum.Acquires, e.sum.Releases
		}
		for _, l := range rel {
			if releases != nil && !holds(state, l) {
				releases[l] = true
			}
			state = delHeld(state, l)
		}
		for _, h := range acq {
			h.CS = base
			state = setHeld(state, h)
		}
	}
	return state
}

func holds(state []Held, lock string) bool {
	for _, h := range state {
		if h.Lock == lock {
			return true
		}
	}
	return false
}

// setHeld returns a copy of state with h added (replacing an entry for the
// same lock: re-acquiring a held Go mutex deadlocks, so the newest wins).
func setHeld(state []Held, h Held) []Held {
	out := make([]Held, 0, len(state)+1)
	done := false
	for _, x := range state {
		switch {
		case x.Lock == h.Lock:
			continue
		case !done && h.Lock < x.Lock:
			out = append(out, h)
			done = true
		}
		out = append(out, x)
	}
	if !done {
		out = append(out, h)
	}
	return out
}

func delHeld(state []Held, lock string) []Held {
	if !holds(state, lock) {
		return state
	}
	out := make([]Held, 0, len(state))
	for _, x := range state {
		if x.Lock != lock {
			out = append(out, x)
		}
	}
	return out
}

// meet intersects two locksets: a lock held on both paths stays, read-held
// if either path only read-holds it, with CS -1 if the acquisitions differ.
func meet(a, b []Held) []Held {
	var out []Held
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].Lock < b[j].Lock:
			i++
		case b[j].Lock < a[i].Lock:
			j++
		default:
			h := a[i]
			h.Read = a[i].Read || b[j].Read
			if a[i].CS != b[j].CS {
				h.CS = -1
			}
			out = append(out, h)
			i++
			j++
		}
	}
	return out
}

// classify returns the proto-events (no Held, no path) of one instruction.
func (b *builder) classify(f *Func, instr ssa.Instruction) []Event {
	ev := func(op Op, loc string) Event {
		return Event{Op: op, Loc: loc, Pos: instr.Pos(), Instr: instr}
	}
	switch in := instr.(type) {
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			return b.access(f, instr, OpRead, in.X)
		case token.ARROW:
			b.concurrent = true
			return []Event{ev(OpRecv, chanLoc(in.X.Type()))}
		}
	case *ssa.Store:
		return b.access(f, instr, OpWrite, in.Addr)
	case *ssa.MapUpdate:
		if b.local(in.Map, instr) {
			return nil
		}
		return []Event{ev(OpWrite, typeStr(in.Map.Type()))}
	case *ssa.Lookup:
		if _, ok := in.X.Type().Underlying().(*types.Map); ok && !b.local(in.X, instr) {
			return []Event{ev(OpRead, typeStr(in.X.Type()))}
		}
	case *ssa.Range:
		if _, ok := in.X.Type().Underlying().(*types.Map); ok && !b.local(in.X, instr) {
			return []Event{ev(OpRead, typeStr(in.X.Type()))}
		}
	case *ssa.Send:
		b.concurrent = true
		return []Event{ev(OpSend, chanLoc(in.Chan.Type()))}
	case *ssa.Select:
		b.concurrent = true
		var out []Event
		for _, st := range in.States {
			e := ev(OpRecv, chanLoc(st.Chan.Type()))
			if st.Dir == types.SendOnly {
				e.Op = OpSend
			}
			if st.Pos.IsValid() {
				e.Pos = st.Pos
			}
			out = append(out, e)
		}
		return out
	case *ssa.MakeChan:
		b.concurrent = true
	case *ssa.Go:
		b.concurrent = true
		return b.call(f, in, true)
	case *ssa.Call:
		return b.call(f, in, false)
	case *ssa.Defer:
		return b.call(f, in, false)
	}
	return nil
}

// access returns the read or write event of addr, or nothing when addr is
// thread-local.
func (b *builder) access(f *Func, instr ssa.Instruction, op Op, addr ssa.Value) []Event {
	name, alloc, kind := b.loc(addr, 0)
	if kind == locNone || b.local(addr, instr) {
		return nil
	}
	pos := instr.Pos()
	if !pos.IsValid() {
		if ai, ok := addr.(ssa.Instruction); ok {
			pos = ai.Pos()
		}
	}
	return []Event{{Op: op, Loc: name, Pos: pos, Alloc: alloc, Instr: instr}}
}

// call classifies a call, go or defer instruction.
func (b *builder) call(f *Func, instr ssa.CallInstruction, isGo bool) []Event {
	c := instr.Common()
	pos := instr.Pos()
	mk := func(op Op, loc string) Event {
		return Event{Op: op, Loc: loc, Pos: pos, Instr: instr}
	}
	if c.IsInvoke() {
		e := mk(OpCall, c.Method.FullName())
		if isGo {
			e.Op = OpGo
		}
		return []Event{e}
	}
	if bi, ok := c.Value.(*ssa.Builtin); ok {
		switch bi.Name() {
		case "close":
			b.concurrent = true
			return []Event{mk(OpClose, chanLoc(c.Args[0].Type()))}
		case "delete":
			if b.local(c.Args[0], instr) {
				return nil
			}
			return []Event{mk(OpWrite, typeStr(c.Args[0].Type()))}
		case "copy":
			var out []Event
			if src := c.Args[1]; isSlice(src.Type()) && !b.local(src, instr) {
				out = append(out, mk(OpRead, elemLoc(src.Type())))
			}
			if dst := c.Args[0]; !b.local(dst, instr) {
				out = append(out, mk(OpWrite, elemLoc(dst.Type())))
			}
			return out
		}
		return nil
	}
	callee := c.StaticCallee()
	if callee != nil {
		if evs, ok := b.syncCall(f, instr, callee, c.Args); ok {
			if isGo {
				// go mu.Unlock() and the like: the operation runs in a new
				// goroutine; keep it out of this sequence's lockset.
				return []Event{mk(OpGo, callee.String())}
			}
			return evs
		}
	}
	e := mk(OpCall, "")
	if isGo {
		e.Op = OpGo
	}
	if callee == nil {
		e.Loc = c.Value.String()
		return []Event{e}
	}
	e.Callee = callee
	e.Loc = callee.String()
	e.recv = callee.Signature.Recv() != nil
	if lf := b.r.Func(callee); lf != nil {
		e.fn = lf
		b.ensure(lf)
	} else if s := b.fact(callee); s != nil {
		e.sum = s
	}
	return []Event{e}
}

// syncCall classifies calls of sync and sync/atomic, and errgroup-style
// Go(func) methods.
func (b *builder) syncCall(f *Func, instr ssa.CallInstruction, callee *ssa.Function, args []ssa.Value) ([]Event, bool) {
	obj, _ := callee.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return nil, false
	}
	pos := instr.Pos()
	mk := func(op Op, loc string) Event {
		return Event{Op: op, Loc: loc, Pos: pos, Instr: instr}
	}
	recv := obj.Signature().Recv()
	switch obj.Pkg().Path() {
	case "sync":
		if recv == nil || len(args) == 0 {
			return nil, false
		}
		b.concurrent = true
		tn := namedOf(recv.Type())
		if tn == nil {
			return nil, false
		}
		lock := b.lockLoc(args[0])
		switch tn.Obj().Name() + "." + obj.Name() {
		case "Mutex.Lock", "RWMutex.Lock":
			return []Event{mk(OpLock, lock)}, true
		case "Mutex.Unlock", "RWMutex.Unlock":
			return []Event{mk(OpUnlock, lock)}, true
		case "RWMutex.RLock":
			return []Event{mk(OpRLock, lock)}, true
		case "RWMutex.RUnlock":
			return []Event{mk(OpRUnlock, lock)}, true
		case "Mutex.TryLock", "RWMutex.TryLock":
			e := mk(OpLock, lock)
			e.TryLock = true
			return []Event{e}, true
		case "RWMutex.TryRLock":
			e := mk(OpRLock, lock)
			e.TryLock = true
			return []Event{e}, true
		case "WaitGroup.Add":
			return []Event{mk(OpWGAdd, lock)}, true
		case "WaitGroup.Done":
			return []Event{mk(OpWGDone, lock)}, true
		case "WaitGroup.Wait":
			return []Event{mk(OpWGWait, lock)}, true
		case "WaitGroup.Go":
			if len(args) > 1 {
				return []Event{b.funcArgEvent(OpGo, instr, args[1])}, true
			}
		case "Once.Do":
			if len(args) > 1 {
				once := mk(OpOnce, lock)
				body := b.funcArgEvent(OpCall, instr, args[1])
				body.once = lock
				once.Callee = body.Callee
				return []Event{once, body}, true
			}
		case "Cond.Wait":
			return []Event{mk(OpCondWait, lock)}, true
		case "Cond.Signal":
			return []Event{mk(OpCondSignal, lock)}, true
		case "Cond.Broadcast":
			return []Event{mk(OpCondBroadcast, lock)}, true
		}
		return nil, false
	case "sync/atomic":
		if len(args) == 0 {
			return nil, false
		}
		b.concurrent = true
		name, alloc, kind := b.loc(args[0], 0)
		if kind == locNone || b.local(args[0], instr) {
			return nil, true
		}
		op := atomicOp(obj.Name(), recv != nil)
		if op == 0 {
			return nil, false
		}
		e := mk(op, name)
		e.Alloc = alloc
		return []Event{e}, true
	}
	// errgroup.Group.Go, conc pools and the like: a method Go whose last
	// parameter is a function starts that function in a goroutine.
	if recv != nil && obj.Name() == "Go" && len(args) >= 2 {
		if _, ok := args[len(args)-1].Type().Underlying().(*types.Signature); ok {
			b.concurrent = true
			return []Event{b.funcArgEvent(OpGo, instr, args[len(args)-1])}, true
		}
	}
	return nil, false
}

// funcArgEvent makes an OpGo/OpCall event running the function value v.
func (b *builder) funcArgEvent(op Op, instr ssa.CallInstruction, v ssa.Value) Event {
	e := Event{Op: op, Loc: v.String(), Pos: instr.Pos(), Instr: instr}
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil {
		return e
	}
	e.Callee = fn
	e.Loc = fn.String()
	e.recv = fn.Signature.Recv() != nil
	if lf := b.r.Func(fn); lf != nil {
		e.fn = lf
		b.ensure(lf)
	} else if s := b.fact(fn); s != nil {
		e.sum = s
	}
	return e
}

// atomicOp maps a sync/atomic function or method name to its op.
func atomicOp(name string, method bool) Op {
	prefix := func(p string) bool { return len(name) >= len(p) && name[:len(p)] == p }
	switch {
	case method && name == "Load", !method && prefix("Load"):
		return OpAtomicLoad
	case method && name == "Store", !method && prefix("Store"):
		return OpAtomicStore
	case prefix("Add"), prefix("Swap"), prefix("CompareAndSwap"), prefix("And"), prefix("Or"):
		return OpAtomicRMW
	}
	return 0
}

// fact returns the summary of a function of another package, or nil.
func (b *builder) fact(callee *ssa.Function) *Summary {
	obj, _ := callee.Object().(*types.Func)
	if obj == nil {
		if o := callee.Origin(); o != nil {
			obj, _ = o.Object().(*types.Func)
		}
	}
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == b.pass.Pkg {
		return nil
	}
	obj = obj.Origin()
	if s, ok := b.facts[obj]; ok {
		return s
	}
	var s *Summary
	if sum := new(Summary); b.pass.ImportObjectFact(obj, sum) {
		s = sum
	}
	b.facts[obj] = s
	return s
}

// markRepeats sets Held.Repeat on f's own events: the event is in a loop
// that does not contain the lock's acquisition (CS is the ordinal + 1 of
// the acquiring instruction in f).
func (f *Func) markRepeats() {
	for i := range f.Events {
		e := &f.Events[i]
		if len(e.Held) == 0 {
			continue
		}
		st := e.path[0]
		if !f.onCycle(st.blk) {
			continue
		}
		var held []Held
		for k, h := range e.Held {
			if h.CS <= 0 {
				continue
			}
			ab, ai := f.instrAt(h.CS - 1)
			if ab < 0 || f.reaches(ab, ai, st.blk, st.idx) && f.reaches(st.blk, st.idx, ab, ai) {
				continue
			}
			if held == nil {
				held = slices.Clone(e.Held)
			}
			held[k].Repeat = true
		}
		if held != nil {
			e.Held = held
		}
	}
}

// instrAt maps an instruction ordinal of f to (block, index), or -1.
// (Every SSA block ends with a control instruction, so block bases are
// strictly increasing.)
func (f *Func) instrAt(ord int32) (int32, int32) {
	b, found := slices.BinarySearch(f.blockBase, ord)
	if !found {
		b--
	}
	if b < 0 || ord-f.blockBase[b] >= int32(len(f.Fn.Blocks[b].Instrs)) {
		return -1, -1
	}
	return int32(b), ord - f.blockBase[b]
}
