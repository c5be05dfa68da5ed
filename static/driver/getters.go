package driver

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// An observer reads one part of a receiver's observable state after a
// driver's calls: a getter's results, or an exported field.
type observer struct {
	name    string // the getter or the field
	getter  bool   // a method call, else a field read
	results int    // a getter's results
}

// observers returns, for each named type of pairs, how the drivers see
// its state (see Driver's oracle): its exported methods without
// parameters, with results, that write nothing (readsOnly); else its
// exported fields (but those of package sync and sync/atomic, whose state
// is the same whenever no call runs); else nothing, and the driver
// compares the whole value.
func observers(p *packages.Package, typs []string) map[string][]observer {
	out := map[string][]observer{}
	var ro *readsOnly
	for _, name := range typs {
		if _, done := out[name]; done {
			continue
		}
		tn, ok := p.Types.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		var obs []observer
		ms := types.NewMethodSet(types.NewPointer(named))
		for i := 0; i < ms.Len(); i++ {
			fn, ok := ms.At(i).Obj().(*types.Func)
			if !ok || !fn.Exported() || fn.Pkg() != p.Types {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() > 0 || sig.Results().Len() == 0 || sig.TypeParams() != nil {
				continue
			}
			if ro == nil {
				ro = newReadsOnly(p)
			}
			if ro.method(fn) {
				obs = append(obs, observer{name: fn.Name(), getter: true, results: sig.Results().Len()})
			}
		}
		if len(obs) == 0 {
			if st, ok := named.Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					f := st.Field(i)
					if f.Exported() && !f.Embedded() && !usesSync(f.Type()) {
						obs = append(obs, observer{name: f.Name()})
					}
				}
			}
		}
		sort.Slice(obs, func(i, j int) bool { return obs[i].name < obs[j].name })
		out[name] = obs
	}
	return out
}

// readsOnly decides, from the SSA of a package, which of its functions
// write nothing a caller could see: no store, map update, channel
// operation or go statement but on values the function itself made, and
// no call but of such functions of the package, of the lock operations of
// package sync (a getter that locks, reads and unlocks writes nothing),
// of atomic loads and of a few pure builtins. A dynamic call (an
// interface method, a function value) may write anything.
type readsOnly struct {
	prog *ssa.Program
	memo map[*ssa.Function]bool
}

func newReadsOnly(p *packages.Package) (r *readsOnly) {
	r = &readsOnly{memo: map[*ssa.Function]bool{}}
	if p.Types == nil || p.TypesInfo == nil || len(p.Errors) > 0 {
		return r
	}
	defer func() {
		// SSA that cannot be built costs the getters (the drivers
		// compare the whole value), never the drivers.
		if recover() != nil {
			r.prog = nil
		}
	}()
	prog := ssa.NewProgram(p.Fset, 0)
	created := map[*types.Package]bool{p.Types: true}
	for _, imp := range p.Types.Imports() {
		if !created[imp] {
			created[imp] = true
			prog.CreatePackage(imp, nil, nil, true)
		}
	}
	prog.CreatePackage(p.Types, p.Syntax, p.TypesInfo, false).Build()
	r.prog = prog
	return r
}

// method reports whether fn, a method of the package, writes nothing.
func (r *readsOnly) method(fn *types.Func) bool {
	if r.prog == nil {
		return false
	}
	f := r.prog.FuncValue(fn)
	return f != nil && r.fn(f, 0)
}

func (r *readsOnly) fn(f *ssa.Function, depth int) bool {
	if ok, seen := r.memo[f]; seen {
		return ok
	}
	if len(f.Blocks) == 0 || depth > 8 {
		return false
	}
	r.memo[f] = true // a recursive call writes what the rest does
	ok := r.body(f, depth)
	r.memo[f] = ok
	return ok
}

func (r *readsOnly) body(f *ssa.Function, depth int) bool {
	for _, b := range f.Blocks {
		for _, ins := range b.Instrs {
			switch ins := ins.(type) {
			case *ssa.Store:
				if !local(ins.Addr) {
					return false
				}
			case *ssa.MapUpdate:
				if !local(ins.Map) {
					return false
				}
			case *ssa.Send, *ssa.Select, *ssa.Go:
				return false
			case *ssa.UnOp:
				if ins.Op.String() == "<-" {
					return false
				}
			case ssa.CallInstruction:
				if !r.call(ins.Common(), depth) {
					return false
				}
			}
		}
	}
	return true
}

// call reports whether a call writes nothing outside its caller.
func (r *readsOnly) call(c *ssa.CallCommon, depth int) bool {
	if c.IsInvoke() {
		return false
	}
	switch v := c.Value.(type) {
	case *ssa.Builtin:
		switch v.Name() {
		case "len", "cap", "min", "max", "real", "imag", "complex", "panic", "print", "println", "recover":
			return true
		case "copy":
			return local(c.Args[0])
		case "append":
			return local(c.Args[0])
		}
		return false
	case *ssa.Function:
		if obj, ok := v.Object().(*types.Func); ok && obj.Pkg() != nil {
			switch obj.Pkg().Path() {
			case "sync":
				switch obj.Name() {
				case "Lock", "Unlock", "RLock", "RUnlock":
					return true
				}
				return false
			case "sync/atomic":
				return len(obj.Name()) >= 4 && obj.Name()[:4] == "Load"
			}
		}
		// Only the package's functions have bodies here (the imports
		// are created from their types): any other writes, for all we
		// know.
		return len(v.Blocks) > 0 && r.fn(v, depth+1)
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return r.fn(fn, depth+1)
		}
	}
	return false
}

// local reports whether v is memory the function made itself (a local
// variable, a slice or map it made, nil), or a part of such memory.
func local(v ssa.Value) bool { return localSeen(v, map[ssa.Value]bool{}) }

func localSeen(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true // a loop: the other edges decide
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.Const:
		return true
	case *ssa.FieldAddr:
		return localSeen(x.X, seen)
	case *ssa.IndexAddr:
		return localSeen(x.X, seen)
	case *ssa.Slice:
		return localSeen(x.X, seen)
	case *ssa.Call:
		// append to memory the function made.
		b, ok := x.Call.Value.(*ssa.Builtin)
		return ok && b.Name() == "append" && localSeen(x.Call.Args[0], seen)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !localSeen(e, seen) {
				return false
			}
		}
		return true
	}
	// A value loaded from memory, a parameter, a global: it may point
	// anywhere.
	return false
}
