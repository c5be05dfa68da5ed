package driver

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// callbackRegistration reports why method m of named is a callback
// registration, or "": its whole body stores its one parameter, a
// function, into a field of the receiver (`c.onClose = h`), with no lock;
// nothing else in the package's code writes that field (a composite
// literal building a new value aside) or takes its address; the package's
// code never names m (its users register, the package does not at run
// time); and no function of the package handing out a named value starts
// a goroutine (see startsGoroutine). nbio's `ClientConn.OnClose`, which a
// driver called beside `Close` (which calls the callback under the
// connection's mutex): a race no maintainer accepts (triage.md,
// nbhttp/client_conn.go:70).
//
// Why leaving its pairs undriven loses no race a user can hit without
// breaking the type's contract. A driver's race shows two calls its user
// makes at once. A function stored whole, with no lock, in a type whose
// other methods lock what they share (meantForConcurrentUse) is how the
// type calls its user back: configuration, which the user gives it once,
// before the value is shared, as the exported fields beside such setters
// (nbio's Engine, Timeout, Dial). That the user can do so is what the
// last condition checks: a value the package hands out runs no goroutine
// of its own yet, so registering first races with nothing; a type whose
// constructor starts one (a reader calling Close at EOF) races with the
// registration however the user orders it, and it is driven as before.
// What stays driven: a setter of a value its methods work with (a
// SetTimeout or SetDeadline changes how operations run, and is made to be
// called while they do), a setter that locks (ttlcache's
// SetNewItemCallback takes the lock its readers take, so its author meant
// it to run beside them: a true race, triage.md cache.go:292), a field
// other code writes too, a setter the package itself calls. And the rule
// drops drivers only: a test of the package that registers beside other
// calls is recorded, and its race reported as any race.
func callbackRegistration(p *packages.Package, named *types.Named, m string) string {
	if p.TypesInfo == nil || p.Types == nil {
		return ""
	}
	decls := funcDecls(p)
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, named.Obj().Pkg(), m)
	fn, _ := obj.(*types.Func)
	if fn == nil {
		return ""
	}
	fd := decls[fn]
	if fd == nil || fd.Body == nil || len(fd.Body.List) != 1 {
		return ""
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return ""
	}
	param := sig.Params().At(0)
	if _, ok := param.Type().Underlying().(*types.Signature); !ok {
		return ""
	}
	as, ok := fd.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return ""
	}
	if id, ok := ast.Unparen(as.Rhs[0]).(*ast.Ident); !ok || p.TypesInfo.Uses[id] != param {
		return ""
	}
	lhs, ok := ast.Unparen(as.Lhs[0]).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if id, ok := ast.Unparen(lhs.X).(*ast.Ident); !ok || p.TypesInfo.Uses[id] != sig.Recv() {
		return ""
	}
	s := p.TypesInfo.Selections[lhs]
	if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return "" // a field of an embedded value is another type's
	}
	field, _ := s.Obj().(*types.Var)
	if field == nil || writtenElsewhere(p, field, lhs) {
		return ""
	}
	if uses, ok := usesOf(p, named, m); !ok || len(uses) > 0 {
		return ""
	}
	for f, d := range decls {
		if f.Pkg() != p.Types || !handsOut(f, named) {
			continue
		}
		if startsGoroutine(p, decls, d, map[*ast.FuncDecl]bool{}, 0) {
			return ""
		}
	}
	return "it only stores a callback in " + field.Name() + " with no lock and the package never calls it: a registration its users make before sharing the value, which runs no goroutine of its own until then"
}

// funcDecls maps the functions and methods declared in p's non-test
// files to their declarations.
func funcDecls(p *packages.Package) map[*types.Func]*ast.FuncDecl {
	out := map[*types.Func]*ast.FuncDecl{}
	for _, f := range p.Syntax {
		if strings.HasSuffix(p.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					out[fn] = fd
				}
			}
		}
	}
	return out
}

// writtenElsewhere reports whether p's non-test code assigns field (of a
// value already built) anywhere but at the selector at, or takes its
// address (a write through the pointer). A keyed composite literal
// builds a new value, which no one else holds yet: not a write.
func writtenElsewhere(p *packages.Package, field *types.Var, at *ast.SelectorExpr) bool {
	is := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok || sel == at {
			return false
		}
		s := p.TypesInfo.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal && s.Obj() == field
	}
	found := false
	for _, f := range p.Syntax {
		if strings.HasSuffix(p.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					found = found || is(l)
				}
			case *ast.UnaryExpr:
				found = found || n.Op == token.AND && is(n.X)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// handsOut reports whether fn returns a named value (or a pointer to one):
// a constructor, a pool's get, anything a user may get one from.
func handsOut(fn *types.Func, named *types.Named) bool {
	res := fn.Type().(*types.Signature).Results()
	for i := 0; i < res.Len(); i++ {
		if mentions(res.At(i).Type(), named, 0) {
			return true
		}
	}
	return false
}

// startsGoroutine reports whether fd, or a function of the package it
// calls statically, may start a goroutine: a go statement; time.AfterFunc;
// a call the index cannot follow (an interface method, a function value:
// it may do anything); or a call into another package handed a function
// (a function literal, a function or method value: errgroup's Go, a
// finalizer may run it on a goroutine of its own). Past depth 8 it says
// yes: it errs towards driving.
func startsGoroutine(p *packages.Package, decls map[*types.Func]*ast.FuncDecl, fd *ast.FuncDecl, seen map[*ast.FuncDecl]bool, depth int) bool {
	if seen[fd] {
		return false
	}
	seen[fd] = true
	if depth > 8 {
		return true
	}
	info := p.TypesInfo
	starts := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if starts {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			starts = true
		case *ast.CallExpr:
			if tv, ok := info.Types[n.Fun]; ok && tv.IsType() {
				return true // a conversion
			}
			switch callee := typeutil.Callee(info, n).(type) {
			case *types.Builtin:
			case *types.Func:
				if callee.Pkg() == p.Types {
					d := decls[callee.Origin()]
					if d == nil {
						starts = true // an interface method of the package
						return false
					}
					starts = startsGoroutine(p, decls, d, seen, depth+1)
					return !starts
				}
				if recv := callee.Type().(*types.Signature).Recv(); recv != nil && types.IsInterface(recv.Type()) {
					starts = true
					return false
				}
				if callee.Pkg() != nil && callee.Pkg().Path() == "time" && callee.Name() == "AfterFunc" {
					starts = true
					return false
				}
				for _, a := range n.Args {
					if t := info.TypeOf(a); t != nil {
						if _, ok := t.Underlying().(*types.Signature); ok {
							starts = true
							return false
						}
					}
				}
			default:
				starts = true // a function value
			}
		}
		return true
	})
	return starts
}

// registrationOf returns the method of pr that is a callback registration
// of named, and why, or "", "".
func registrationOf(p *packages.Package, named *types.Named, pr *pair) (string, string) {
	for _, m := range []string{pr.m0, pr.m1} {
		if why := callbackRegistration(p, named, m); why != "" {
			return m, why
		}
	}
	return "", ""
}
