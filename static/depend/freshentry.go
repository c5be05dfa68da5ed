package depend

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// freshEntry reports whether the state r read between the unit's writes
// a and b differs from the state after b only by an entry that r's range
// would have done nothing with: a deletes key K from a map, b stores at
// K (Event.Key, recorded for both and checked by the replay) an object
// the unit made (freshObject: allocated in b's function, its fields set
// only by its composite literal, handed to no one before b), r is a
// range over the same map, and r's loop body, run on that object as it
// stands at b, does nothing: no write, call, send or exit of the loop
// that could tell (freshNoop). The schedule shows the rest
// (Event.Writes): K was deleted at a and no write put it back before r
// (the other writes from a to r are deletes), and no write fell between
// r and b. The keys of those other writes are not known: a schedule
// carries the keys of the pattern's steps only, the ones the replay
// checks (another step at a site may take another key in the replay
// than in the recording: a range's order is random), so a write other
// than a delete counts as one that may put K back, and any write between
// r and b as one r missed. Then the map r read is the map after b
// without K, and a range that skipped K did what one that came to K's
// new object would have done: r read no state that no serial order
// gives it. tally's
// scopeRegistry.Subscope deletes a closed scope's key and inserts a new
// scope with empty metric maps; Report's range between reports each
// scope (report ranges over the empty maps) and removes the closed ones
// (the new one's closed flag is its zero value).
//
// When b deletes K again (the unit's second delete of one key), the map
// after b is the map r read, whatever r does with it.
//
// A range whose body counts the entries, leaves the loop, or does
// anything to the object (a listener notified, a pre-filled scope's
// metrics reported) stays judged: the missing entry is a lost step of
// the loop. So does a value inserted that is not fresh (an entry taken
// out and put back), a key other than a's, and a write between r and b.
func (x *Index) freshEntry(a, b, r Event) bool {
	if a.Key == 0 || a.Key != b.Key || r.Writes == nil || !(a.Step < r.Step && r.Step < b.Step) {
		return false
	}
	for _, t := range r.Writes {
		if t.Step <= a.Step || t.Step >= b.Step {
			continue
		}
		if t.Step > r.Step {
			return false // r read without it; the state after b has it
		}
		if !x.deletes(t.Site) {
			return false // K may be back at r
		}
	}
	m, ok := x.deletesFrom(a.Site)
	if !ok {
		return false
	}
	if mb, ok := x.deletesFrom(b.Site); ok {
		// b deletes K again, absent since a: the map after b is the
		// one r read.
		return mb == m
	}
	var objs []*freshObj
	for _, in := range x.instrs[b.Site] {
		switch in := in.(type) {
		case *ssa.MapUpdate:
			if mapVar(in.Map) != m {
				return false
			}
			o := freshObject(in)
			if o == nil {
				return false
			}
			objs = append(objs, o)
		case *ssa.Store, ssa.CallInstruction:
			return false
		}
	}
	if len(objs) == 0 {
		return false
	}
	var rngs []*ssa.Range
	for _, in := range x.instrs[r.Site] {
		if rg, ok := in.(*ssa.Range); ok {
			if mapVar(rg.X) != m {
				return false
			}
			rngs = append(rngs, rg)
		}
	}
	if len(rngs) == 0 {
		return false
	}
	for _, o := range objs {
		for _, rg := range rngs {
			if !freshNoop(rg, o) {
				return false
			}
		}
	}
	return true
}

// freshObj is an object the unit made and stored into a map: its
// fields' values as its composite literal set them (a field it does not
// set holds its zero value).
type freshObj struct {
	alloc *ssa.Alloc
	field map[int]fval // fields the literal set, by index
}

// freshObject returns the object u stores, when it is fresh at u: a heap
// allocation of u's function whose only uses before u are the stores of
// its composite literal, each field stored once, in blocks that run
// before u; any other use (a call it is passed to, a store of the
// pointer, an insert elsewhere) must come after u. Else nil.
func freshObject(u *ssa.MapUpdate) *freshObj {
	al, ok := unconvert(u.Value).(*ssa.Alloc)
	if !ok || !al.Heap || al.Parent() != u.Parent() {
		return nil
	}
	if _, ok := al.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); !ok {
		return nil
	}
	o := &freshObj{alloc: al, field: map[int]fval{}}
	stored := map[int]int{}
	for _, ref := range *al.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			for _, fr := range *ref.Referrers() {
				st, ok := fr.(*ssa.Store)
				if _, dbg := fr.(*ssa.DebugRef); dbg {
					continue
				}
				if !ok || st.Addr != ref || !before(st, u) {
					return nil
				}
				stored[ref.Field]++
				o.field[ref.Field] = freshInit(st.Val)
			}
		default:
			if ref != ssa.Instruction(u) && !freshAfter(ref, u) {
				return nil
			}
		}
	}
	for f, n := range stored {
		if n > 1 {
			o.field[f] = fval{kind: opaqueV}
		}
	}
	return o
}

// freshAfter reports whether a can run only after b: later in b's block, or
// in a block b's dominates that no loop takes back to b's.
func freshAfter(a, b ssa.Instruction) bool {
	if a.Parent() != b.Parent() {
		return false
	}
	if a.Block() == b.Block() {
		return before(b, a) && !reaches(a, b)
	}
	return b.Block().Dominates(a.Block()) && !reaches(a, b)
}

// freshInit is what a field of a fresh object holds when its literal
// stored v there: an empty map when v is a map made for it alone (or
// nil), v's constant, else an opaque value.
func freshInit(v ssa.Value) fval {
	switch v := v.(type) {
	case *ssa.MakeMap:
		if freshOnlyStored(v) {
			return fval{kind: emptyMapV}
		}
	case *ssa.Const:
		return freshConst(v)
	}
	return fval{kind: opaqueV}
}

// freshConst is the abstract value of a constant: a nil map is empty.
func freshConst(c *ssa.Const) fval {
	if c.Value != nil {
		return fval{kind: constV, c: c.Value}
	}
	if freshIsMap(c.Type()) {
		return fval{kind: emptyMapV}
	}
	return fval{kind: opaqueV}
}

// freshOnlyStored reports whether v's one use is one store.
func freshOnlyStored(v ssa.Value) bool {
	n := 0
	for _, r := range *v.Referrers() {
		switch r.(type) {
		case *ssa.Store:
			n++
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return n == 1
}

// fkind is the kind of an abstract value in freshNoop's evaluation.
type fkind int

const (
	unsetV     fkind = iota // not computed yet
	opaqueV                 // any value
	symV                    // a value defined before the evaluated code, unchanged
	freshV                  // the fresh object's pointer
	fieldV                  // the address of one of its fields (or of a field's field)
	emptyMapV               // an empty (or nil) map
	emptyIterV              // a range over an empty map
	doneV                   // the result of a Next on an empty map's range
	constV                  // a constant
)

type fval struct {
	kind fkind
	path []int          // fieldV: the field indices from the object
	c    constant.Value // constV
	sym  ssa.Value      // symV
}

func (v fval) eq(w fval) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case fieldV:
		return slices.Equal(v.path, w.path)
	case constV:
		return constant.Compare(v.c, token.EQL, w.c)
	case symV:
		return v.sym == w.sym
	}
	return true
}

// freshJoin is what a value holds when it came by either of two paths.
func freshJoin(v, w fval) fval {
	switch {
	case v.kind == unsetV:
		return w
	case w.kind == unsetV:
		return v
	case v.eq(w):
		return v
	}
	return fval{kind: opaqueV}
}

// freshNoop reports whether the body of the range rg over a map does
// nothing when the entry it comes to holds o as it stands when stored:
// evaluated with the element bound to o (its key opaque), every path the
// fresh object's state leaves open returns to the loop's head without a
// write, a send, a call that could act (one with a body is evaluated in
// turn, a few calls deep; sync's locks of o's own mutexes, balanced, and
// sync/atomic's loads of its fields are allowed), a dereference that could
// panic, or a change of any value the loop carries round.
func freshNoop(rg *ssa.Range, o *freshObj) bool {
	var next *ssa.Next
	for _, r := range *rg.Referrers() {
		if n, ok := r.(*ssa.Next); ok {
			next = n
		}
	}
	if next == nil || next.IsString {
		return false
	}
	var cond *ssa.If
	env := map[ssa.Value]fval{}
	for _, r := range *next.Referrers() {
		e, ok := r.(*ssa.Extract)
		if !ok {
			continue
		}
		switch e.Index {
		case 0:
			for _, u := range *e.Referrers() {
				if f, ok := u.(*ssa.If); ok && f.Cond == e {
					cond = f
				}
			}
		case 2:
			env[e] = fval{kind: freshV}
		default:
			env[e] = fval{kind: opaqueV}
		}
	}
	if cond == nil {
		return false
	}
	head, body := next.Block(), cond.Block().Succs[0]
	ev := &freshEval{obj: o, stack: map[*ssa.Function]bool{}, fixed: map[ssa.Value]bool{}}
	for v := range env {
		ev.fixed[v] = true
	}
	inBody := func(b *ssa.BasicBlock) bool { return b != head && body.Dominates(b) }
	// The loop's head may carry values round: each must come back as it
	// went in.
	for _, in := range head.Instrs {
		if phi, ok := in.(*ssa.Phi); ok {
			env[phi] = fval{kind: symV, sym: phi}
		}
	}
	res, ok := ev.region(head.Parent(), body, env, inBody, head)
	if !ok || res.returned {
		return false
	}
	for _, in := range head.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			break
		}
		for i, p := range head.Preds {
			if res.feasible[p] && inBody(p) && !res.value(phi.Edges[i]).eq(fval{kind: symV, sym: phi}) {
				return false
			}
		}
	}
	return true
}

// freshEval evaluates code on the fresh object, looking for an act.
type freshEval struct {
	obj   *freshObj
	fixed map[ssa.Value]bool // the range's key and element, bound
	stack map[*ssa.Function]bool
}

// regionResult is what evaluating a function's code (or a loop body) found.
type regionResult struct {
	fn       *ssa.Function
	within   func(*ssa.BasicBlock) bool
	env      map[ssa.Value]fval
	feasible map[*ssa.BasicBlock]bool
	returned bool // a return was reached
	result   fval // the join of the first results returned
}

// value is v's abstract value: unset for a value of the code evaluated
// not computed yet; a symbol for one defined before it.
func (r *regionResult) value(v ssa.Value) fval {
	if c, ok := v.(*ssa.Const); ok {
		return freshConst(c)
	}
	if w, ok := r.env[v]; ok {
		return w
	}
	if in, ok := v.(ssa.Instruction); ok && in.Block() != nil && in.Parent() == r.fn && r.within(in.Block()) {
		return fval{}
	}
	return fval{kind: symV, sym: v}
}

// maxFreshDepth bounds the calls freshEval follows.
const maxFreshDepth = 6

// region evaluates fn's code from entry to a fixed point and reports
// whether it can act: a whole function when within is nil, else a loop's
// body (the blocks within allows), which may leave only for head, the
// loop's head (a break, a return, a continue of an outer loop or a goto
// out skips the loop's other entries: an act).
func (e *freshEval) region(fn *ssa.Function, entry *ssa.BasicBlock, env map[ssa.Value]fval, within func(*ssa.BasicBlock) bool, head *ssa.BasicBlock) (*regionResult, bool) {
	if len(e.stack) >= maxFreshDepth || e.stack[fn] {
		return nil, false
	}
	e.stack[fn] = true
	defer delete(e.stack, fn)
	loopBody := within != nil
	if within == nil {
		within = func(*ssa.BasicBlock) bool { return true }
	}
	res := &regionResult{fn: fn, within: within, env: env, feasible: map[*ssa.BasicBlock]bool{entry: true}}
	edge := map[[2]int]bool{} // feasible edges: pred index, succ index
	locks := map[string]int{} // lock operations of the fresh object's mutexes, by field and kind
	branched := false
	for round := 0; round <= 2*len(fn.Blocks)+4; round++ {
		changed := false
		clear(locks)
		branched = false
		for _, b := range fn.Blocks {
			if !res.feasible[b] {
				continue
			}
			for _, in := range b.Instrs {
				v, succs, act := e.step(in, res, edge, locks, &branched)
				if act {
					return nil, false
				}
				if val, ok := in.(ssa.Value); ok && v.kind != unsetV && !e.fixed[val] {
					if old, ok := res.env[val]; !ok || !old.eq(v) {
						res.env[val] = v
						changed = true
					}
				}
				for _, s := range succs {
					if !edge[[2]int{b.Index, s.Index}] {
						edge[[2]int{b.Index, s.Index}] = true
						changed = true
					}
					if !within(s) {
						if loopBody && s != head {
							return nil, false // the loop left by a break, goto or exit
						}
						continue
					}
					if !res.feasible[s] {
						res.feasible[s] = true
						changed = true
					}
				}
			}
		}
		if !changed {
			if len(locks) > 0 && branched {
				return nil, false
			}
			for _, n := range locks {
				if n != 0 {
					return nil, false
				}
			}
			return res, true
		}
	}
	return nil, false
}

// step evaluates one instruction: its value, the successors it leaves
// for, and whether it may act.
func (e *freshEval) step(in ssa.Instruction, res *regionResult, edge map[[2]int]bool, locks map[string]int, branched *bool) (fval, []*ssa.BasicBlock, bool) {
	opaque := fval{kind: opaqueV}
	if _, phi := in.(*ssa.Phi); !phi {
		// An operand not computed yet: come back in the next round.
		for _, op := range in.Operands(nil) {
			if *op != nil && res.value(*op).kind == unsetV {
				return fval{}, nil, false
			}
		}
	}
	switch in := in.(type) {
	case *ssa.DebugRef, *ssa.RunDefers:
		return fval{}, nil, false
	case *ssa.Jump:
		return fval{}, in.Block().Succs, false
	case *ssa.If:
		c := res.value(in.Cond)
		if c.kind == constV && c.c.Kind() == constant.Bool {
			if constant.BoolVal(c.c) {
				return fval{}, in.Block().Succs[:1], false
			}
			return fval{}, in.Block().Succs[1:], false
		}
		*branched = true
		return fval{}, in.Block().Succs, false
	case *ssa.Return:
		res.returned = true
		if len(in.Results) > 0 {
			res.result = freshJoin(res.result, res.value(in.Results[0]))
		}
		return fval{}, nil, false
	case *ssa.Phi:
		v := fval{}
		for i, p := range in.Block().Preds {
			if edge[[2]int{p.Index, in.Block().Index}] {
				v = freshJoin(v, res.value(in.Edges[i]))
			}
		}
		return v, nil, false
	case *ssa.FieldAddr:
		switch x := res.value(in.X); x.kind {
		case freshV:
			return fval{kind: fieldV, path: []int{in.Field}}, nil, false
		case fieldV:
			return fval{kind: fieldV, path: append(slices.Clip(x.path), in.Field)}, nil, false
		}
		return fval{}, nil, true // may dereference nil
	case *ssa.UnOp:
		x := res.value(in.X)
		switch in.Op {
		case token.MUL:
			if x.kind != fieldV {
				return fval{}, nil, true
			}
			return e.load(x, in.Type()), nil, false
		case token.ARROW:
			return fval{}, nil, true
		}
		if x.kind == constV {
			if c := freshUnary(in.Op, x.c); c != nil {
				return fval{kind: constV, c: c}, nil, false
			}
		}
		return opaque, nil, false
	case *ssa.BinOp:
		x, y := res.value(in.X), res.value(in.Y)
		switch in.Op {
		case token.QUO, token.REM, token.SHL, token.SHR:
			return fval{}, nil, true // may panic
		}
		if types.IsInterface(in.X.Type()) || types.IsInterface(in.Y.Type()) {
			return fval{}, nil, true // comparing uncomparable dynamic types panics
		}
		if x.kind == constV && y.kind == constV {
			if c := freshBinary(in.Op, x.c, y.c); c != nil {
				return fval{kind: constV, c: c}, nil, false
			}
		}
		return opaque, nil, false
	case *ssa.Range:
		if res.value(in.X).kind == emptyMapV {
			return fval{kind: emptyIterV}, nil, false
		}
		return opaque, nil, false
	case *ssa.Next:
		if res.value(in.Iter).kind == emptyIterV {
			return fval{kind: doneV}, nil, false
		}
		return opaque, nil, false
	case *ssa.Extract:
		if res.value(in.Tuple).kind == doneV && in.Index == 0 {
			return fval{kind: constV, c: constant.MakeBool(false)}, nil, false
		}
		return opaque, nil, false
	case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.Field, *ssa.MakeClosure:
		return opaque, nil, false
	case *ssa.Lookup:
		if in.CommaOk || freshIsMap(in.X.Type()) {
			return opaque, nil, false // a map lookup cannot panic
		}
		return fval{}, nil, true
	case *ssa.TypeAssert:
		if in.CommaOk {
			return opaque, nil, false
		}
		return fval{}, nil, true
	case *ssa.Call:
		return e.call(in, res, locks)
	}
	// Stores, map updates, sends, go, defer, select, panics, slicing and
	// indexing (which may panic): acts.
	return fval{}, nil, true
}

// call evaluates a call on the fresh object's state.
func (e *freshEval) call(c *ssa.Call, res *regionResult, locks map[string]int) (fval, []*ssa.BasicBlock, bool) {
	com := c.Common()
	if bi, ok := com.Value.(*ssa.Builtin); ok {
		if bi.Name() == "len" && len(com.Args) == 1 {
			if res.value(com.Args[0]).kind == emptyMapV {
				return fval{kind: constV, c: constant.MakeInt64(0)}, nil, false
			}
			return fval{kind: opaqueV}, nil, false
		}
		return fval{}, nil, true
	}
	g := callee(c)
	if com.IsInvoke() || g == nil {
		return fval{}, nil, true
	}
	if g.Pkg != nil && g.Signature.Recv() != nil && len(com.Args) > 0 {
		arg := res.value(com.Args[0])
		switch g.Pkg.Pkg.Path() {
		case "sync":
			// A lock of the fresh object's own mutex: no one else has
			// the object yet, so it neither waits nor is seen.
			if arg.kind != fieldV {
				return fval{}, nil, true
			}
			k := fmt.Sprint(arg.path)
			switch g.Name() {
			case "Lock", "RLock":
				locks[k+g.Name()]++
				return fval{}, nil, false
			case "Unlock":
				locks[k+"Lock"]--
				return fval{}, nil, false
			case "RUnlock":
				locks[k+"RLock"]--
				return fval{}, nil, false
			}
			return fval{}, nil, true
		}
	}
	if g.Pkg != nil && zeroLoads[g.Pkg.Pkg.Path()] {
		// Load, the method, or LoadInt32 and the like: of a field the
		// literal left zero, the load is zero.
		if len(com.Args) == 1 && (g.Name() == "Load" || g.Signature.Recv() == nil && strings.HasPrefix(g.Name(), "Load")) {
			if arg := res.value(com.Args[0]); arg.kind == fieldV {
				return e.load(arg, c.Type()), nil, false
			}
		}
		return fval{}, nil, true
	}
	if g.Blocks == nil {
		return fval{}, nil, true
	}
	env := map[ssa.Value]fval{}
	for i, p := range g.Params {
		if i < len(com.Args) {
			v := res.value(com.Args[i])
			if v.kind == symV {
				v = fval{kind: opaqueV} // another function's value
			}
			env[p] = v
		}
	}
	for _, fv := range g.FreeVars {
		env[fv] = fval{kind: opaqueV}
	}
	sub, ok := e.region(g, g.Blocks[0], env, nil, nil)
	if !ok {
		return fval{}, nil, true
	}
	if sub.result.kind == constV && g.Signature.Results().Len() == 1 {
		return sub.result, nil, false
	}
	return fval{kind: opaqueV}, nil, false
}

// zeroLoads are the packages whose Load functions and methods return the
// zero value of their result for a variable that holds its zero value:
// sync/atomic, and go.uber.org/atomic, whose types wrap sync/atomic's and
// are documented ready to use at their zero value (Bool's false, Int64's
// 0, String's ""). Their code is not in the index (another module's, or
// the standard library's), so what their loads give is taken from here.
var zeroLoads = map[string]bool{"sync/atomic": true, "go.uber.org/atomic": true}

// load is the value of type t at the field address f of the fresh
// object: the literal's value of a field it set, the zero value within
// a field it left zero.
func (e *freshEval) load(f fval, t types.Type) fval {
	v, set := e.obj.field[f.path[0]]
	switch {
	case !set:
		return freshZero(t)
	case len(f.path) == 1:
		return v
	}
	return fval{kind: opaqueV}
}

// freshZero is the zero value of a basic type as a constant; opaque for
// any other type (a nil map is an empty one).
func freshZero(t types.Type) fval {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return fval{kind: constV, c: constant.MakeBool(false)}
		case u.Info()&types.IsInteger != 0:
			return fval{kind: constV, c: constant.MakeInt64(0)}
		case u.Info()&types.IsString != 0:
			return fval{kind: constV, c: constant.MakeString("")}
		}
	case *types.Map:
		return fval{kind: emptyMapV}
	}
	return fval{kind: opaqueV}
}

func freshIsMap(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
}

func freshUnary(op token.Token, x constant.Value) (c constant.Value) {
	defer func() {
		if recover() != nil {
			c = nil
		}
	}()
	return constant.UnaryOp(op, x, 0)
}

func freshBinary(op token.Token, x, y constant.Value) (c constant.Value) {
	defer func() {
		if recover() != nil {
			c = nil
		}
	}()
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return constant.MakeBool(constant.Compare(x, op, y))
	}
	return constant.BinaryOp(x, op, y)
}
