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
// constructor (a Resize, a SetWindow), and is driven as before.
func constructionHook(p *packages.Package, named *types.Named, m string) string {
	if p.TypesInfo == nil {
		return ""
	}
	ptr := types.NewPointer(named)
	ctor := ""
	viaIface := false
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
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != m {
					return true
				}
				s := p.TypesInfo.Selections[sel]
				if s == nil || s.Kind() != types.MethodVal {
					return true
				}
				recv := s.Recv()
				if iface, ok := recv.Underlying().(*types.Interface); ok {
					if !types.Implements(ptr, iface) || !declaredIn(recv, p.Types) {
						return true
					}
					if !isCtor {
						bad = true
						return false
					}
					viaIface = true
					ctor = fd.Name.Name
					return true
				}
				if sameNamed(recv, named) && !isCtor {
					bad = true // a direct call at run time: an operation
					return false
				}
				return true
			})
			if bad {
				return ""
			}
		}
	}
	if !viaIface {
		return ""
	}
	return ctor
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
