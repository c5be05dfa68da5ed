package depend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// handoff reports whether the state that r read between two writes of
// another unit (the first at a) was published for it to wait on: the
// value r read leads, in r's unit, to a wait (sync.WaitGroup.Wait, a
// channel receive) on a field of what it found, and a's unit releases
// that field (WaitGroup.Done, close, a send). singleflight's Do stores
// the pending call in the map and unlocks so that a duplicate caller
// finds it and waits on call.wg, which the first caller's doCall marks
// done: the intermediate state is the pending call, and what the reader
// goes on to use is the writer's completed result. A reader that acts on
// the intermediate state without waiting for the writer stays reported.
func (x *Index) handoff(a, r Event) bool {
	waits := x.waitsOn(r)
	if len(waits) == 0 {
		return false
	}
	top := x.enclosing(a)
	if len(a.Frames) > 0 {
		top = x.function(a.Frames[0].Site)
	}
	if top == nil {
		return false
	}
	for f := range x.releases(top) {
		if waits[f] {
			return true
		}
	}
	return false
}

// waitsOn returns the fields of synchronizers that e's unit waits on,
// reached from the value e read: a WaitGroup field it calls Wait on, a
// channel field it receives from (directly or in a select).
func (x *Index) waitsOn(e Event) map[*types.Var]bool {
	inner := x.enclosing(e)
	if inner == nil {
		return nil
	}
	t := x.newTaint(x.scope(inner))
	for _, v := range x.reads(e.Site, t.sc) {
		t.seed(v)
	}
	t.run()
	out := map[*types.Var]bool{}
	for v := range t.vals {
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, in := range *refs {
			switch in := in.(type) {
			case *ssa.Call:
				if isSyncMethod(in.Common().StaticCallee(), "WaitGroup", "Wait") && len(in.Call.Args) > 0 && in.Call.Args[0] == v {
					if f := field(v); f != nil {
						out[f] = true
					}
				}
			case *ssa.UnOp:
				if in.Op == token.ARROW && in.X == v {
					if f := chanField(v); f != nil {
						out[f] = true
					}
				}
			case *ssa.Select:
				for _, st := range in.States {
					if st.Dir == types.RecvOnly && st.Chan == v {
						if f := chanField(v); f != nil {
							out[f] = true
						}
					}
				}
			}
		}
	}
	return out
}

// releases returns the fields of synchronizers that fn, the functions and
// methods it calls (statically, in the index) and the closures they
// define release: WaitGroup.Done, close, a channel send.
func (x *Index) releases(fn *ssa.Function) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	seen := map[*ssa.Function]bool{}
	work := []*ssa.Function{fn}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		if f == nil || f.Blocks == nil || seen[f] {
			continue
		}
		seen[f] = true
		work = append(work, f.AnonFuncs...)
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				switch in := in.(type) {
				case *ssa.Send:
					if v := chanField(in.Chan); v != nil {
						out[v] = true
					}
				case ssa.CallInstruction:
					com := in.Common()
					if bi, ok := com.Value.(*ssa.Builtin); ok && bi.Name() == "close" && len(com.Args) == 1 {
						if v := chanField(com.Args[0]); v != nil {
							out[v] = true
						}
						continue
					}
					if isSyncMethod(com.StaticCallee(), "WaitGroup", "Done") && len(com.Args) > 0 {
						if v := field(com.Args[0]); v != nil {
							out[v] = true
						}
						continue
					}
					work = append(work, callee(in))
				}
			}
		}
	}
	return out
}

// isSyncMethod reports whether fn is sync's method typ.name.
func isSyncMethod(fn *ssa.Function, typ, name string) bool {
	if fn == nil || fn.Name() != name || fn.Signature.Recv() == nil {
		return false
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return false
	}
	p, ok := fn.Signature.Recv().Type().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == typ
}

// field is the struct field whose address v is (c.wg), or nil.
func field(v ssa.Value) *types.Var {
	fa, ok := v.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= s.NumFields() {
		return nil
	}
	return s.Field(fa.Field)
}

// chanField is the struct field a channel value was loaded from (c.done),
// or nil.
func chanField(v ssa.Value) *types.Var {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		return field(u.X)
	}
	return nil
}

// waitedFor reports whether r, a read of what a wrote, comes in r's
// function only after a wait (WaitGroup.Wait, a receive) on a field that
// a's unit releases: the wait dominates r. r then reads a's value
// because the writer handed it over, not by the interleaving's chance:
// theine-go's singleflight duplicate reads c.val after c.wg.Wait(), which
// the leader's doCall releases after setting c.val. Had a come after the
// release, a and r would be unordered conflicting accesses: a race,
// which is reported as such.
func (x *Index) waitedFor(a, r Event) bool {
	fn := x.enclosing(r)
	top := x.enclosing(a)
	if len(a.Frames) > 0 {
		top = x.function(a.Frames[0].Site)
	}
	if fn == nil || top == nil {
		return false
	}
	var at []ssa.Instruction
	for _, in := range x.instrs[r.Site] {
		if in.Parent() == fn {
			at = append(at, in)
		}
	}
	if len(at) == 0 {
		return false
	}
	var released map[*types.Var]bool
	for _, b := range fn.Blocks {
		for i, in := range b.Instrs {
			f := waitField(in)
			if f == nil {
				continue
			}
			if released == nil {
				released = x.releases(top)
			}
			if !released[f] {
				continue
			}
			dominates := true
			for _, ri := range at {
				rb := ri.Block()
				if rb == b {
					dominates = dominates && indexOf(b, ri) > i
				} else {
					dominates = dominates && b.Dominates(rb)
				}
			}
			if dominates {
				return true
			}
		}
	}
	return false
}

// waitField is the field of the synchronizer that in waits on
// (WaitGroup.Wait on c.wg, a receive from c.done), or nil.
func waitField(in ssa.Instruction) *types.Var {
	switch in := in.(type) {
	case *ssa.Call:
		if isSyncMethod(in.Common().StaticCallee(), "WaitGroup", "Wait") && len(in.Call.Args) > 0 {
			return field(in.Call.Args[0])
		}
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			return chanField(in.X)
		}
	}
	return nil
}

// indexOf is in's index in b, or -1.
func indexOf(b *ssa.BasicBlock, in ssa.Instruction) int {
	for i, x := range b.Instrs {
		if x == in {
			return i
		}
	}
	return -1
}
