package driver

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
)

// constructionHook names the constructor that makes method m of named a
// construction hook, or "": m implements a method of an interface of the
// package (httprate's LimitCounter.Config), the package calls that
// interface method only from constructors (package functions named
// New… or new…: NewRateLimiter hands the limiter's window to the counter
// it was given) and never calls m directly outside them. The interface is
// the package's contract with the types it is handed, and the package
// keeps that method to the time it builds the value, before any
// goroutine shares it: a driver calling it beside the type's other
// methods makes a use the package never does. A method that users call
// at any time has no such interface, or a caller that is no
// constructor (a Resize, a SetWindow), and is driven as before. So is m
// of a type out of its users' reach (private) that the package calls
// directly only in constructors: no one else can call it.
func constructionHook(p *packages.Package, named *types.Named, m string) string {
	if p.TypesInfo == nil {
		return ""
	}
	ctor := ""
	viaIface, direct := false, false
	for _, f := range p.Syntax {
		if strings.HasSuffix(p.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			isCtor := fd.Recv == nil && (strings.HasPrefix(fd.Name.Name, "New") || strings.HasPrefix(fd.Name.Name, "new"))
			bad := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || bad {
					return !bad
				}
				_, iface, onNamed := methodCall(p.TypesInfo, call, named, m)
				if iface {
					if !isCtor {
						bad = true
						return false
					}
					viaIface = true
					ctor = fd.Name.Name
					return true
				}
				if onNamed {
					if !isCtor {
						bad = true // a direct call at run time: an operation
						return false
					}
					direct = true
					ctor = fd.Name.Name
				}
				return true
			})
			if bad {
				return ""
			}
		}
	}
	if viaIface || direct && private(p, named) {
		return ctor
	}
	return ""
}

// private reports whether named is out of its users' reach: unexported,
// and in no exported function's or method's results, no exported
// variable, no exported field of an exported struct, and embedded nowhere
// (which would promote its methods); an interface there that named or
// *named implements (any, too) could carry one out to the user, who
// calls its methods through it. Only the package can then call its methods, so a method the
// package calls directly only in constructors is a construction hook too
// (phuslu/lru's shard Init, called by NewLRUCache on each shard before
// the cache is returned).
func private(p *packages.Package, named *types.Named) bool {
	if named.Obj().Exported() {
		return false
	}
	ptr := types.NewPointer(named)
	carries := func(t types.Type) bool {
		if mentions(t, named, 0) {
			return true
		}
		if _, ok := t.(*types.TypeParam); ok {
			return false // the caller's type argument: users cannot name named
		}
		iface, ok := t.Underlying().(*types.Interface)
		return ok && (types.Implements(named, iface) || types.Implements(ptr, iface))
	}
	exposes := func(sig *types.Signature) bool {
		for i := 0; i < sig.Results().Len(); i++ {
			if carries(sig.Results().At(i).Type()) {
				return true
			}
		}
		return false
	}
	scope := p.Types.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			if obj.Exported() && exposes(obj.Type().(*types.Signature)) {
				return false
			}
		case *types.TypeName:
			t, ok := obj.Type().(*types.Named)
			if !ok {
				continue
			}
			if st, ok := t.Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					f := st.Field(i)
					if f.Embedded() && mentions(f.Type(), named, 0) || obj.Exported() && f.Exported() && carries(f.Type()) {
						return false
					}
				}
			}
			if !obj.Exported() {
				continue
			}
			for i := 0; i < t.NumMethods(); i++ {
				if m := t.Method(i); m.Exported() && exposes(m.Type().(*types.Signature)) {
					return false
				}
			}
		case *types.Var:
			if obj.Exported() && carries(obj.Type()) {
				return false
			}
		}
	}
	return true
}

// mentions reports whether t is named, or holds it as an element.
func mentions(t types.Type, named *types.Named, depth int) bool {
	if depth > 4 {
		return true // deep: assume reachable
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.Obj() == named.Obj() {
			return true
		}
		for _, a := range typeList(t.TypeArgs()) {
			if mentions(a, named, depth+1) {
				return true
			}
		}
		return false
	case *types.Pointer:
		return mentions(t.Elem(), named, depth+1)
	case *types.Slice:
		return mentions(t.Elem(), named, depth+1)
	case *types.Array:
		return mentions(t.Elem(), named, depth+1)
	case *types.Map:
		return mentions(t.Key(), named, depth+1) || mentions(t.Elem(), named, depth+1)
	case *types.Chan:
		return mentions(t.Elem(), named, depth+1)
	}
	return false
}

// declaredIn reports whether t is a named type declared in pkg.
func declaredIn(t types.Type, pkg *types.Package) bool {
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() == pkg
}

// hookOf returns the method of pr that is a construction hook of named,
// and the constructor that calls it, or "", "".
func hookOf(p *packages.Package, named *types.Named, pr *pair) (string, string) {
	for _, m := range []string{pr.m0, pr.m1} {
		if ctor := constructionHook(p, named, m); ctor != "" {
			return m, ctor
		}
	}
	return "", ""
}

// methodCall reports how call calls method m of named: through an
// interface of named's package that *named implements (iface), or on a
// named value or pointer (direct); sel is the call's selector when it
// names m.
func methodCall(info *types.Info, call *ast.CallExpr, named *types.Named, m string) (sel *ast.SelectorExpr, iface, direct bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != m {
		return nil, false, false
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return sel, false, false
	}
	recv := s.Recv()
	if it, ok := recv.Underlying().(*types.Interface); ok {
		return sel, types.Implements(types.NewPointer(named), it) && declaredIn(recv, named.Obj().Pkg()), false
	}
	return sel, false, sameNamed(recv, named)
}
