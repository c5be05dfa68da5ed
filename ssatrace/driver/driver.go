// Package driver generates test drivers for packages that have no tests,
// like the drivers PECAN used to close the JDK collections: for an exported
// type whose methods use locks, atomics or channels, each test builds a
// value (with a New… constructor if the package has one, else the zero
// value) and calls two of its exported methods from two goroutines with
// zero arguments. The recorded run then holds the accesses the dynamic loop
// predicts from. The drivers exist only in the overlay: they never land in
// the user's tree.
package driver

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// File is the name drivers are written under, in the package's directory.
const File = "zz_pecanvet_driver_test.go"

// Limits on what is generated per package.
const (
	maxTypes = 8
	maxPairs = 12 // per type
)

// Generate returns driver test files (path → source) for the packages
// matching patterns that have no test files and have a type worth driving.
func Generate(ctx context.Context, dir string, patterns []string, buildFlags []string) (map[string][]byte, error) {
	// Which packages lack tests follows from file names alone: find them
	// with a load that needs no type information, and type-check only
	// them. A load with types runs the compiler for export data and
	// type-checks every matched package, about a second per check even
	// on a warm cache, and most checked packages have tests.
	cfg := &packages.Config{
		Context:    ctx,
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedModule,
		Dir:        dir,
		BuildFlags: buildFlags,
		Tests:      true,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	tested := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			if strings.HasSuffix(f, "_test.go") {
				tested[strings.TrimSuffix(p.PkgPath, "_test")] = true
			}
		}
	}
	untested := func(p *packages.Package) bool {
		if p.Module == nil || !p.Module.Main || tested[p.PkgPath] || len(p.GoFiles) == 0 || p.Name == "main" {
			return false
		}
		return !strings.Contains(p.ID, ".test") && !strings.HasSuffix(p.PkgPath, "_test")
	}
	var want []string
	for _, p := range pkgs {
		if untested(p) {
			want = append(want, p.PkgPath)
		}
	}
	out := map[string][]byte{}
	if len(want) == 0 {
		return out, nil
	}
	cfg.Mode = packages.NeedName | packages.NeedFiles | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule
	cfg.Tests = false
	if pkgs, err = packages.Load(cfg, want...); err != nil {
		return nil, err
	}
	for _, p := range pkgs {
		if !untested(p) || p.Types == nil {
			continue
		}
		src := generate(p)
		if src != "" {
			out[filepath.Join(filepath.Dir(p.GoFiles[0]), File)] = []byte(src)
		}
	}
	return out, nil
}

// concurrent reports whether t's methods (or fields) use sync, atomics or
// channels: the types worth driving from two goroutines.
func concurrent(p *packages.Package, named *types.Named) bool {
	if st, ok := named.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if usesSync(st.Field(i).Type()) {
				return true
			}
		}
	}
	// A method body that uses channels or go statements.
	found := false
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			fd, ok := n.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil {
				return !found
			}
			obj, _ := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				return false
			}
			recv := obj.Type().(*types.Signature).Recv()
			if recv == nil || !sameNamed(recv.Type(), named) {
				return false
			}
			ast.Inspect(fd.Body, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.GoStmt, *ast.SendStmt:
					found = true
				case *ast.UnaryExpr:
					if m.Op == token.ARROW {
						found = true
					}
				}
				return !found
			})
			return false
		})
	}
	return found
}

func sameNamed(t types.Type, named *types.Named) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj() == named.Obj()
}

func usesSync(t types.Type) bool {
	switch t := t.(type) {
	case *types.Named:
		if pkg := t.Obj().Pkg(); pkg != nil && (pkg.Path() == "sync" || pkg.Path() == "sync/atomic") {
			return true
		}
	case *types.Chan:
		return true
	case *types.Pointer:
		return usesSync(t.Elem())
	}
	return false
}

type gen struct {
	pkg     *types.Package
	imports map[string]string // path → name
}

// zero returns an expression of type t's zero value, or "" if t cannot be
// named from the package.
func (g *gen) zero(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			if _, named := t.(*types.Named); !named {
				return "false"
			}
		case u.Info()&types.IsString != 0:
			if _, named := t.(*types.Named); !named {
				return `""`
			}
		case u.Info()&types.IsNumeric != 0:
			if _, named := t.(*types.Named); !named {
				return "0"
			}
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		if _, named := t.(*types.Named); !named {
			if _, iface := u.(*types.Interface); iface {
				return "nil"
			}
		}
	}
	name, ok := g.typeName(t)
	if !ok {
		return ""
	}
	return "*new(" + name + ")"
}

// typeName writes t as the package sees it, recording imports; false if a
// part of it is not exported from its package.
func (g *gen) typeName(t types.Type) (string, bool) {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == g.pkg {
			return ""
		}
		name, seen := g.imports[p.Path()]
		if !seen {
			name = fmt.Sprintf("pecanvetimp%d", len(g.imports))
			g.imports[p.Path()] = name
		}
		return name
	})
	check := func(t types.Type) {
		if n, isNamed := t.(*types.Named); isNamed {
			if n.Obj().Pkg() != nil && n.Obj().Pkg() != g.pkg && !n.Obj().Exported() {
				ok = false
			}
			if n.TypeArgs() != nil {
				ok = false
			}
		}
	}
	check(t)
	if p, isPtr := t.(*types.Pointer); isPtr {
		check(p.Elem())
	}
	return s, ok
}

func generate(p *packages.Package) string {
	g := &gen{pkg: p.Types, imports: map[string]string{}}
	scope := p.Types.Scope()
	var body strings.Builder
	types_ := 0
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams() != nil {
			continue
		}
		if _, isIface := named.Underlying().(*types.Interface); isIface || !concurrent(p, named) {
			continue
		}
		ctor := g.constructor(scope, named)
		if ctor == "" {
			continue
		}
		ms := types.NewMethodSet(types.NewPointer(named))
		var calls []string
		for i := 0; i < ms.Len(); i++ {
			fn, ok := ms.At(i).Obj().(*types.Func)
			if !ok || !fn.Exported() {
				continue
			}
			if call := g.call(fn); call != "" {
				calls = append(calls, call)
			}
		}
		if len(calls) == 0 {
			continue
		}
		sort.Strings(calls)
		pairs := 0
		for i := 0; i < len(calls) && pairs < maxPairs; i++ {
			for j := i; j < len(calls) && pairs < maxPairs; j++ {
				pairs++
				fmt.Fprintf(&body, "\nfunc TestPecanvetDriver%s_%d(t *testing.T) {\n", name, pairs)
				fmt.Fprintf(&body, "\tx := %s\n", ctor)
				body.WriteString("\tdone := make(chan struct{})\n")
				fmt.Fprintf(&body, "\tgo func() {\n\t\tdefer close(done)\n\t\tdefer func() { recover() }()\n\t\t%s\n\t}()\n", calls[i])
				fmt.Fprintf(&body, "\tfunc() {\n\t\tdefer func() { recover() }()\n\t\ttime.Sleep(time.Millisecond)\n\t\t%s\n\t}()\n", calls[j])
				body.WriteString("\t<-done\n}\n")
			}
		}
		if types_++; types_ >= maxTypes {
			break
		}
	}
	if body.Len() == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("// Code generated by pecanvet: a test driver for a package without tests. It exists only in pecanvet's build overlay.\n\n")
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"testing\"\n\t\"time\"\n", p.Types.Name())
	var paths []string
	for path := range g.imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		fmt.Fprintf(&b, "\t%s %q\n", g.imports[path], path)
	}
	b.WriteString(")\n")
	b.WriteString(body.String())
	return b.String()
}

// constructor returns an expression building a *T (or T) value: New<T> or
// New if it returns one and takes zero-able arguments, else new(T).
func (g *gen) constructor(scope *types.Scope, named *types.Named) string {
	for _, cand := range []string{"New" + named.Obj().Name(), "New"} {
		fn, ok := scope.Lookup(cand).(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.TypeParams() != nil || sig.Results().Len() == 0 || !sameNamed(sig.Results().At(0).Type(), named) {
			continue
		}
		args, ok := g.args(sig)
		if !ok {
			continue
		}
		call := cand + "(" + args + ")"
		if sig.Results().Len() > 1 {
			call = "func() " + g.resultType(sig.Results().At(0).Type()) + " { v, _ := " + call + "; return v }()"
			if sig.Results().Len() > 2 {
				continue
			}
		}
		if _, ptr := sig.Results().At(0).Type().(*types.Pointer); !ptr {
			return "func() *" + named.Obj().Name() + " { v := " + call + "; return &v }()"
		}
		return call
	}
	return "new(" + named.Obj().Name() + ")"
}

func (g *gen) resultType(t types.Type) string {
	s, _ := g.typeName(t)
	return s
}

func (g *gen) args(sig *types.Signature) (string, bool) {
	var args []string
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			break
		}
		z := g.zero(sig.Params().At(i).Type())
		if z == "" {
			return "", false
		}
		args = append(args, z)
	}
	return strings.Join(args, ", "), true
}

// call returns "x.M(args)", discarding results, or "" if M cannot be called
// with zero arguments from here.
func (g *gen) call(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.TypeParams() != nil {
		return ""
	}
	args, ok := g.args(sig)
	if !ok {
		return ""
	}
	return "x." + fn.Name() + "(" + args + ")"
}
