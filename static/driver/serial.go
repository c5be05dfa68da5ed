package driver

import (
	"go/ast"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// oneGoroutine names the method whose doc comment keeps method m of
// named to one goroutine at a time ("This should only be called from a
// single goroutine at a time", benbjohnson/clock's Mock.Add and Set):
// m itself, or a method of named that m calls on its own receiver, a few
// calls deep (Mock.WaitForAllTimers calls m.Set); "" if none does. A
// call of m is then a call of that method by m's goroutine.
func oneGoroutine(p *packages.Package, named *types.Named, m string) string {
	seen := map[string]bool{}
	var walk func(m string, depth int) string
	walk = func(m string, depth int) string {
		if seen[m] {
			return ""
		}
		seen[m] = true
		fd := methodDecl(p, named, m)
		if fd == nil {
			return ""
		}
		if fd.Doc != nil && oneGoroutineDoc(fd.Doc.Text()) {
			return m
		}
		if depth == 0 || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
			return ""
		}
		recv := p.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		found := ""
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if found != "" {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			// Only a call on m's own receiver is a call on the value the
			// driver shares; another value of the type is another clock.
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || recv == nil || p.TypesInfo.Uses[id] != recv {
				return true
			}
			if s := p.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
				return true
			}
			found = walk(sel.Sel.Name, depth-1)
			return found == ""
		})
		return found
	}
	return walk(m, 3)
}

// methodDecl is the declaration of named's method m in p, or nil.
func methodDecl(p *packages.Package, named *types.Named, m string) *ast.FuncDecl {
	if p.TypesInfo == nil {
		return nil
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != m {
				continue
			}
			if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				if recv := fn.Type().(*types.Signature).Recv(); recv != nil && sameNamed(recv.Type(), named) {
					return fd
				}
			}
		}
	}
	return nil
}

// oneGoroutineDoc reports whether a method's doc comment says the method
// is called from one goroutine at a time, or is not safe to call
// concurrently. A method doc saying "not safe for concurrent use" does
// not count: it often speaks of the value the method returns ("Get
// returns a Buffer, which is not safe for concurrent use").
func oneGoroutineDoc(doc string) bool {
	doc = strings.Join(strings.Fields(strings.ToLower(doc)), " ")
	return onePhrase.MatchString(doc)
}

var onePhrase = regexp.MustCompile(`(should|must|may|can) only be (called|used) (from|by|in) (a single|one) goroutine|(should|must) (not|never) be called (concurrently|from (multiple|several|different|more than one) goroutines)|not safe to (call|use) concurrently`)

// serialPair says why the driver of pr would call two methods that the
// package's docs keep to one goroutine (oneGoroutine), or "": each of m0
// and m1 is, or calls on its receiver, a method so documented. One
// goroutine at a time advances benbjohnson/clock's mock clock (Add and
// Set each say so); a driver calling Add and Set, or Add and
// WaitForAllTimers (which calls Set), from two goroutines makes a use the
// package rules out, and what it shows is the driver's doing.
func serialPair(p *packages.Package, named *types.Named, pr *pair) string {
	d0 := oneGoroutine(p, named, pr.m0)
	if d0 == "" {
		return ""
	}
	d1 := oneGoroutine(p, named, pr.m1)
	if d1 == "" {
		return ""
	}
	why := func(m, d string) string {
		if m == d {
			return m
		}
		return m + " calls " + d
	}
	if pr.m0 == pr.m1 {
		return why(pr.m0, d0)
	}
	return why(pr.m0, d0) + "; " + why(pr.m1, d1)
}

// notThreadSafe names why method m of named is never to run beside the
// type's other methods, or "": m's own doc says it is not thread safe,
// or every reference to m in the package's own code (a test's aside)
// lies in functions whose docs say so of themselves, at least one.
// cep21/circuit's RollingBuckets.Store, which only
// RollingCounter.UnmarshalJSON calls ("Note, this is *NOT* thread
// safe"), copies a whole window field by field: restoring a counter while
// it counts is a use the package rules out, and a driver calling Store
// beside Advance shows the driver's misuse, not the package's bug. A
// method with one caller whose doc says nothing, or that implements an
// interface method the package calls (whose callers no one sees), keeps
// its drivers; a race the package's own tests show is another trace's,
// which this does not touch.
func notThreadSafe(p *packages.Package, named *types.Named, m string) string {
	fd := methodDecl(p, named, m)
	if fd == nil || p.TypesInfo == nil {
		return ""
	}
	if fd.Doc != nil && unsafeSelfDoc(fd.Doc.Text(), m) {
		return "its doc says it is not thread safe"
	}
	fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return ""
	}
	ptr := types.NewPointer(named)
	var callers []string
	bad := false
	for _, f := range p.Syntax {
		if strings.HasSuffix(p.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if bad || n == fd {
				return false // m calling itself does not count
			}
			if d, ok := n.(*ast.FuncDecl); ok {
				refs := false
				if d.Body != nil {
					ast.Inspect(d.Body, func(n ast.Node) bool {
						if sel, ok := n.(*ast.SelectorExpr); ok && refersTo(p, sel, fn, ptr) {
							refs = true
						}
						return !refs
					})
				}
				if !refs {
					return false
				}
				if d.Doc == nil || !unsafeSelfDoc(d.Doc.Text(), d.Name.Name) {
					bad = true
					return false
				}
				callers = append(callers, d.Name.Name)
				return false
			}
			if sel, ok := n.(*ast.SelectorExpr); ok && refersTo(p, sel, fn, ptr) {
				bad = true // outside any function: a method value in a variable
			}
			return !bad
		})
		if bad {
			return ""
		}
	}
	if len(callers) == 0 {
		return ""
	}
	slices.Sort(callers)
	callers = slices.Compact(callers)
	return "the package calls it only from " + strings.Join(callers, ", ") + ", documented not thread safe"
}

// refersTo reports whether sel selects fn (a call, a method value or
// expression), or a method of the same name of an interface that ptr
// implements: a call the package may make on the type's values through
// that interface.
func refersTo(p *packages.Package, sel *ast.SelectorExpr, fn *types.Func, ptr types.Type) bool {
	s := p.TypesInfo.Selections[sel]
	if s == nil {
		return false
	}
	obj, ok := s.Obj().(*types.Func)
	if !ok || obj.Name() != fn.Name() {
		return false
	}
	if obj.Origin() == fn.Origin() {
		return true
	}
	iface, ok := s.Recv().Underlying().(*types.Interface)
	return ok && types.Implements(ptr, iface)
}

// unsafeSelfDoc reports whether the doc of the function name says that
// the function itself is not safe to run concurrently ("Note, this is
// *NOT* thread safe", "Load is not safe for concurrent use"). Keeping it
// to one goroutine at a time (oneGoroutineDoc) does not count: that
// orders its calls among themselves, not beside readers (serialPair). A
// doc saying so of what the function returns ("returns a Buffer, which is not safe for concurrent
// use") does not count: the subject must be the function.
func unsafeSelfDoc(doc, name string) bool {
	doc = strings.Map(func(r rune) rune {
		if r == '*' || r == '_' || r == '`' {
			return -1 // markdown emphasis: *NOT*
		}
		return r
	}, strings.ToLower(doc))
	doc = strings.Join(strings.Fields(doc), " ")
	re := regexp.MustCompile(`(^|[^\w.])(this|it|` + regexp.QuoteMeta(strings.ToLower(name)) + `)( method| function| call)? is( \w+)? not (safe for (concurrent|simultaneous|parallel) use|safe to (call|use) concurrently|(thread|goroutine|concurrency)[- ]safe)`)
	return re.MatchString(doc)
}

// notThreadSafeOf returns the method of pr that notThreadSafe names, and
// why, or "", "".
func notThreadSafeOf(p *packages.Package, named *types.Named, pr *pair) (string, string) {
	for _, m := range []string{pr.m0, pr.m1} {
		if why := notThreadSafe(p, named, m); why != "" {
			return m, why
		}
	}
	return "", ""
}
