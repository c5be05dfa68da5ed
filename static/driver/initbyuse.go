package driver

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
)

// initializerByUse reports why method m of named is an initializer its
// users call once, first, on each new value, or "": m's name begins with
// Init or its doc says it initializes, the package never calls it
// itself (its users do), and every call of it in the package's tests is
// the first method call on a value that the calling function got from a
// call (a constructor or a test helper) just before. tcell's Screen.Init
// ("Init initializes the screen for use"), which every test calls right
// after NewSimulationScreen: a driver calling it beside Fini or SetSize
// calls a method no user calls on a screen in use, and reported twelve
// races against it (trial 17). A method a test calls later too, or on
// a value it did not just make, is driven as before; so is one whose
// name and doc say nothing of initializing (a cache's first Set).
//
// pkgs are the package with its tests (p [p.test], which declares named)
// and its external tests, if any.
func initializerByUse(pkgs []*packages.Package, named *types.Named, m string) string {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, named.Obj().Pkg(), m)
	fn, ok := obj.(*types.Func)
	if !ok || !strings.HasPrefix(m, "Init") && !strings.Contains(strings.ToLower(funcDoc(pkgs[0], fn)), "initializ") {
		return ""
	}
	calls := 0
	for _, p := range pkgs {
		n, ok := initCalls(p, named, m)
		if !ok {
			return ""
		}
		calls += n
	}
	if calls == 0 {
		return ""
	}
	return "every test calls it first on a value it has just made, and the package never calls it (an initializer its users run once before the value is shared)"
}

// initCalls counts the calls of m on named in p's files, and reports
// whether each is a test's first call on a value it has just made.
func initCalls(p *packages.Package, named *types.Named, m string) (int, bool) {
	if p == nil || p.TypesInfo == nil {
		return 0, true
	}
	// calls of m on named (or an interface of its package it implements).
	isM := func(call *ast.CallExpr) (*ast.SelectorExpr, bool) {
		sel, iface, direct := methodCall(p.TypesInfo, call, named, m)
		return sel, iface || direct
	}
	calls := 0
	for _, f := range p.Syntax {
		test := strings.HasSuffix(p.Fset.Position(f.Pos()).Filename, "_test.go")
		bad := false
		ast.Inspect(f, func(n ast.Node) bool {
			if bad {
				return false
			}
			var body *ast.BlockStmt
			switch n := n.(type) {
			case *ast.FuncDecl:
				body = n.Body
			case *ast.FuncLit:
				body = n.Body
			default:
				return true
			}
			if body == nil {
				return false
			}
			for _, stmt := range body.List {
				ast.Inspect(stmt, func(n ast.Node) bool {
					if _, ok := n.(*ast.FuncLit); ok {
						return false // its own body, visited on its own
					}
					call, ok := n.(*ast.CallExpr)
					if !ok || bad {
						return !bad
					}
					sel, ok := isM(call)
					if !ok {
						return true
					}
					if !test || !firstOnFresh(p, body, sel) {
						bad = true
						return false
					}
					calls++
					return true
				})
			}
			return true
		})
		if bad {
			return 0, false
		}
	}
	return calls, true
}

// firstOnFresh reports whether sel, a method call's selector in body, is
// on a variable that body assigned from a call before it, and that
// nothing between used for a method call, a field or an argument (a
// comparison with nil may check the constructor's result).
func firstOnFresh(p *packages.Package, body *ast.BlockStmt, sel *ast.SelectorExpr) bool {
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v := p.TypesInfo.Uses[id]
	if v == nil {
		return false
	}
	def := token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.End() > sel.Pos() || len(as.Rhs) != 1 {
			return true
		}
		if _, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !ok {
			return true
		}
		for _, l := range as.Lhs {
			if lid, ok := l.(*ast.Ident); ok && (p.TypesInfo.Defs[lid] == v || p.TypesInfo.Uses[lid] == v) {
				def = as.End()
			}
		}
		return true
	})
	if !def.IsValid() {
		return false
	}
	between := func(n ast.Node) bool {
		x, ok := ast.Unparen(n.(ast.Expr)).(*ast.Ident)
		return ok && x != id && x.Pos() > def && x.Pos() < sel.Pos() && p.TypesInfo.Uses[x] == v
	}
	used := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			used = used || between(n.X)
		case *ast.CallExpr:
			for _, a := range n.Args {
				used = used || between(a)
			}
		}
		return !used
	})
	return !used
}

// funcDoc is the doc comment of method fn's declaration, and of the
// package's interface methods of its name.
func funcDoc(p *packages.Package, fn *types.Func) string {
	var b strings.Builder
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Doc != nil && p.TypesInfo.Defs[n.Name] == fn {
					b.WriteString(n.Doc.Text())
				}
			case *ast.InterfaceType:
				for _, m := range n.Methods.List {
					if m.Doc != nil && len(m.Names) == 1 && m.Names[0].Name == fn.Name() {
						b.WriteString(m.Doc.Text())
					}
				}
			}
			return true
		})
	}
	return b.String()
}

// initOf returns the method of pr that is an initializer by use of
// named, and why, or "", "".
func initOf(host, xtest *packages.Package, typ string, pr *pair) (string, string) {
	if host == nil || host.Types == nil {
		return "", ""
	}
	tn, ok := host.Types.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		return "", ""
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return "", ""
	}
	for _, m := range []string{pr.m0, pr.m1} {
		if why := initializerByUse([]*packages.Package{host, xtest}, named, m); why != "" {
			return m, why
		}
	}
	return "", ""
}
