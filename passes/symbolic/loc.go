package symbolic

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

type locKind uint8

const (
	locNone     locKind = iota // thread-local: no event
	locKnown                   // a named abstract location
	locTypeOnly                // a pointer of unknown origin, named by its type
)

// loc names the abstract location addressed by the pointer value v.
func (b *builder) loc(v ssa.Value, depth int) (string, *ssa.Alloc, locKind) {
	if depth > 8 {
		return "*" + typeStr(pointee(v.Type())), nil, locTypeOnly
	}
	switch v := v.(type) {
	case *ssa.Global:
		return globalName(v), nil, locKnown
	case *ssa.FieldAddr:
		if stackRooted(v.X) {
			return "", nil, locNone
		}
		st := pointee(v.X.Type())
		if s, ok := st.Underlying().(*types.Struct); ok && v.Field < s.NumFields() {
			return typeName(st) + "." + s.Field(v.Field).Name(), nil, locKnown
		}
	case *ssa.IndexAddr:
		switch xt := v.X.Type().Underlying().(type) {
		case *types.Pointer: // *[N]T: an element of an array is the array
			if stackRooted(v.X) {
				return "", nil, locNone
			}
			return b.loc(v.X, depth+1)
		case *types.Slice:
			return "[]" + typeStr(xt.Elem()) + " elem", nil, locKnown
		}
	case *ssa.Alloc:
		if !v.Heap {
			return "", nil, locNone
		}
		return v.Parent().String() + "." + v.Comment, v, locKnown
	case *ssa.FreeVar:
		if bnd := b.binding(v); bnd != nil {
			return b.loc(bnd, depth+1)
		}
		return v.Parent().String() + "." + v.Name(), nil, locKnown
	case *ssa.UnOp:
		if v.Op == token.MUL { // a pointer loaded from a location
			if name, _, kind := b.loc(v.X, depth+1); kind != locNone {
				return "*" + name, nil, kind
			}
		}
	}
	return "*" + typeStr(pointee(v.Type())), nil, locTypeOnly
}

// lockLoc names the sync object (lock, WaitGroup, …) addressed by v; locks
// without a static identity get a '?' prefix.
func (b *builder) lockLoc(v ssa.Value) string {
	name, _, kind := b.loc(v, 0)
	switch kind {
	case locKnown:
		return name
	case locNone:
		return "?local " + typeStr(pointee(v.Type()))
	}
	return "?" + name
}

// binding returns the value a closure's free variable was bound to.
func (b *builder) binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	mc := b.closures[fn]
	if mc == nil {
		return nil
	}
	for i, x := range fn.FreeVars {
		if x == fv && i < len(mc.Bindings) {
			return mc.Bindings[i]
		}
	}
	return nil
}

// stackRooted reports whether an address is rooted in a local allocation
// that go/ssa keeps on the stack (Alloc.Heap false): it does not escape, so
// no other goroutine sees it.
func stackRooted(x ssa.Value) bool {
	a, ok := rootOf(x).(*ssa.Alloc)
	return ok && !a.Heap
}

// rootOf follows an address or a slice to the allocation it is derived
// from without going through memory: FieldAddr, IndexAddr and Slice
// operands. The result is an *ssa.Alloc, *ssa.MakeSlice or *ssa.MakeMap, or
// whatever value the chain ends at.
func rootOf(x ssa.Value) ssa.Value {
	for range 16 {
		switch v := x.(type) {
		case *ssa.FieldAddr:
			x = v.X
		case *ssa.IndexAddr:
			x = v.X
		case *ssa.Slice:
			x = v.X
		default:
			return x
		}
	}
	return x
}

// local reports whether the access by instr through base (an address, or
// a slice or map value) touches memory no other goroutine can see there:
// memory of an allocation of instr's function (new, &T{…}, make,
// append(nil, …), a captured variable before its closure exists) that has not escaped yet —
// instr is not reachable from any escaping use of the allocation without
// executing the allocation again. Stack allocations never escape.
func (b *builder) local(base ssa.Value, instr ssa.Instruction) bool {
	root := rootOf(base)
	switch r := root.(type) {
	case *ssa.Alloc:
		if !r.Heap {
			return true
		}
	case *ssa.MakeSlice, *ssa.MakeMap:
	case *ssa.Call:
		if !freshAppend(r) {
			return false
		}
	default:
		return false
	}
	ri := root.(ssa.Instruction)
	if ri.Parent() != instr.Parent() || ri.Block() == nil || instr.Block() == nil {
		return false
	}
	esc, ok := b.escapes(root)
	if !ok {
		return false
	}
	for _, e := range esc {
		if reachAvoiding(e, instr, ri) {
			return false
		}
	}
	return true
}

// freshAppend reports whether c is append(nil, …): its result is nil or
// a new array (append to a nil slice always allocates), the copy idiom
// `append([]T(nil), s...)`, so it is as fresh as a make.
func freshAppend(c *ssa.Call) bool {
	bi, ok := c.Call.Value.(*ssa.Builtin)
	if !ok || bi.Name() != "append" || len(c.Call.Args) == 0 {
		return false
	}
	k, ok := c.Call.Args[0].(*ssa.Const)
	return ok && k.IsNil()
}

// maxEscapes bounds the escaping uses examined per allocation.
const maxEscapes = 32

// escapes returns the instructions through which an allocation (or
// anything derived from it by FieldAddr, IndexAddr and Slice) may become
// visible elsewhere: every use but loads, stores into it, indexing, map
// lookups and updates, range, and the builtins len, cap, copy, delete and
// clear. ok is false when there are more than maxEscapes.
func (b *builder) escapes(root ssa.Value) (esc []ssa.Instruction, ok bool) {
	if e, done := b.escMemo[root]; done {
		return e, e != nil || b.escOK[root]
	}
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if seen[v] {
			return
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case *ssa.FieldAddr:
				walk(r)
				continue
			case *ssa.IndexAddr:
				if r.X == v {
					walk(r)
					continue
				}
			case *ssa.Slice:
				if r.X == v {
					walk(r)
					continue
				}
			case *ssa.UnOp:
				if r.Op == token.MUL {
					continue
				}
			case *ssa.Store:
				if r.Addr == v && r.Val != v {
					continue
				}
			case *ssa.Lookup:
				if r.X == v && r.Index != v {
					continue
				}
			case *ssa.MapUpdate:
				if r.Map == v && r.Key != v && r.Value != v {
					continue
				}
			case *ssa.Index, *ssa.Range, *ssa.DebugRef:
				continue
			case *ssa.Call:
				if bi, isBuiltin := r.Call.Value.(*ssa.Builtin); isBuiltin {
					switch bi.Name() {
					case "len", "cap", "copy", "delete", "clear":
						continue
					}
				}
			}
			esc = append(esc, ref)
		}
	}
	walk(root)
	ok = len(esc) <= maxEscapes
	if !ok {
		esc = nil
	}
	b.escMemo[root] = esc
	b.escOK[root] = ok
	return esc, ok
}

// reachAvoiding reports whether to can execute after from, in one
// invocation, on a path that does not execute avoid (all three in one
// function).
func reachAvoiding(from, to, avoid ssa.Instruction) bool {
	fb, tb, ab := from.Block(), to.Block(), avoid.Block()
	fi, ti, ai := indexIn(from), indexIn(to), indexIn(avoid)
	if fb == tb && fi < ti && !(ab == fb && fi < ai && ai < ti) {
		return true
	}
	if ab == fb && ai > fi {
		return false // every path out of from's block executes avoid
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), fb.Succs...)
	for len(stack) > 0 {
		blk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		if blk == tb && !(ab == blk && ai < ti) {
			return true
		}
		if blk == ab {
			continue
		}
		stack = append(stack, blk.Succs...)
	}
	return false
}

func pointee(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

func namedOf(t types.Type) *types.Named {
	t = types.Unalias(pointee(types.Unalias(t)))
	n, _ := t.(*types.Named)
	return n
}

func pathQualifier(p *types.Package) string { return p.Path() }

// typeStr renders a type with full package paths.
func typeStr(t types.Type) string { return types.TypeString(t, pathQualifier) }

// typeName names a (struct) type: "pkgpath.T" for a named type (generic
// types by their origin, without type arguments), the type string otherwise.
func typeName(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		obj := n.Origin().Obj()
		if obj.Pkg() == nil {
			return obj.Name()
		}
		return obj.Pkg().Path() + "." + obj.Name()
	}
	return typeStr(t)
}

func globalName(g *ssa.Global) string {
	if obj := g.Object(); obj != nil && obj.Pkg() != nil {
		return obj.Pkg().Path() + "." + g.Name()
	}
	if g.Pkg != nil {
		return g.Pkg.Pkg.Path() + "." + g.Name()
	}
	return g.Name()
}

// chanLoc names a channel by its element type: "chan T".
func chanLoc(t types.Type) string {
	if c, ok := t.Underlying().(*types.Chan); ok {
		return "chan " + typeStr(c.Elem())
	}
	return typeStr(t)
}

// elemLoc names the elements of a slice type.
func elemLoc(t types.Type) string {
	if s, ok := t.Underlying().(*types.Slice); ok {
		return "[]" + typeStr(s.Elem()) + " elem"
	}
	return typeStr(t)
}
