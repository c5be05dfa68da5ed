package driver

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// meantForConcurrentUse says why values of named (a type of p) are meant
// to be used from several goroutines, or "" if nothing says so: it holds a
// value of package sync or sync/atomic or a channel (in a field, or in a
// field of a struct it embeds or holds and uses, see ownSync), or its doc comment says it is safe for
// concurrent use; a sync.WaitGroup does not count (holdsSync), and a doc
// that says the type is not safe for concurrent use overrides the fields,
// as being a cursor does (unless its doc says it is safe). A race a
// driver finds between two of its methods is then a bug of the type, whatever the calls' outcome: the package's users may
// make those calls concurrently. Of another type, the package may never
// do so, and the driver's calls are pecanvet's guess.
func meantForConcurrentUse(p *packages.Package, named *types.Named) string {
	doc := typeDoc(p, named.Obj())
	if unsafeDoc(doc) {
		return "" // the doc's word beats what the fields suggest
	}
	if cursor(named) != "" && !safeDoc(doc) {
		return "" // one goroutine's, whatever lock it holds
	}
	if st, ok := named.Underlying().(*types.Struct); ok {
		if what := ownSync(p, named, st); what != "" {
			return "it holds " + what
		}
	}
	if doc != "" && safeDoc(doc) {
		return "its doc says it is safe for concurrent use"
	}
	return ""
}

// ownSync names the first sync value (holdsSync) that st, named's
// struct, holds as its own: in a field of its own, in a struct it embeds
// (whose methods are named's), or in a struct it holds by value whose
// sync values named's methods use (heldSyncUsed). A struct held by value
// whose sync values named never touches is a value like any other it
// links: theine-go's List holds its sentinel Entry, whose atomics guard
// the entries that other goroutines read, while the List itself is used
// only under its shard's mutex and never touches its sentinel's atomics.
func ownSync(p *packages.Package, named *types.Named, st *types.Struct) string {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if what := isSync(f); what != "" {
			return what
		}
		inner, ok := types.Unalias(f.Type()).Underlying().(*types.Struct)
		if !ok {
			continue
		}
		what := holdsSync(inner, 1)
		if what == "" {
			continue
		}
		if f.Embedded() || heldSyncUsed(p, named, f, inner) {
			return what
		}
	}
	return ""
}

// heldSyncUsed reports whether named's methods use a sync value of inner,
// the struct held in named's field f: they select one through f (l.in.mu.Lock(),
// l.in.n.Add(1)), or call a method of the package on f's value, or pass
// it (or its address) to a function of the package, that does so through
// its receiver or that parameter (a few calls deep). A sync value reached
// only through a copy of f's address stored elsewhere is taken for
// another value's: List links &l.root into its entries and reads the
// entries' atomics (Persist), never through l.root itself.
func heldSyncUsed(p *packages.Package, named *types.Named, f *types.Var, inner *types.Struct) bool {
	syncs := map[*types.Var]bool{}
	syncFields(inner, 0, syncs)
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, file := range p.Syntax {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	u := &syncUse{info: p.TypesInfo, decls: decls, syncs: syncs, seen: map[types.Object]bool{}}
	viaField := func(e ast.Expr) bool {
		sel, ok := strip(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s := p.TypesInfo.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal && s.Obj().(*types.Var).Origin() == f.Origin()
	}
	origin := named.Origin()
	for i := 0; i < origin.NumMethods(); i++ {
		if fd := decls[origin.Method(i).Origin()]; fd != nil && u.uses(fd, viaField, 0) {
			return true
		}
	}
	return false
}

// isSync names f's type as holdsSync does if it is itself a sync value
// or a channel (not a struct holding one), or "".
func isSync(f *types.Var) string {
	return holdsSync(types.NewStruct([]*types.Var{f}, nil), 3)
}

// syncFields adds to out the fields (their origins) of st, and of the
// structs it holds by value, whose type holdsSync counts.
func syncFields(st *types.Struct, depth int, out map[*types.Var]bool) {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if isSync(f) != "" {
			out[f.Origin()] = true
		} else if inner, ok := types.Unalias(f.Type()).Underlying().(*types.Struct); ok && depth < 3 {
			syncFields(inner, depth+1, out)
		}
	}
}

// syncUse follows a held struct value through the package's functions.
type syncUse struct {
	info  *types.Info
	decls map[*types.Func]*ast.FuncDecl
	syncs map[*types.Var]bool
	seen  map[types.Object]bool // receivers and parameters followed
}

// uses reports whether fd's body selects a sync field of the held value
// (an expression for which held is true), or hands the value to a method
// or function of the package that does so (depth calls deep at most).
func (u *syncUse) uses(fd *ast.FuncDecl, held func(ast.Expr) bool, depth int) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if s := u.info.Selections[n]; s != nil && s.Kind() == types.FieldVal && u.syncs[s.Obj().(*types.Var).Origin()] {
				for e := n.X; e != nil; {
					if held(e) {
						found = true
						return false
					}
					switch x := strip(e).(type) {
					case *ast.SelectorExpr:
						e = x.X
					default:
						e = nil
					}
				}
			}
		case *ast.CallExpr:
			if depth >= 3 {
				return true
			}
			fn := typeutil.StaticCallee(u.info, n)
			if fn == nil {
				return true
			}
			callee := u.decls[fn.Origin()]
			if callee == nil {
				return true
			}
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && held(sel.X) && callee.Recv != nil {
				if found = u.follow(callee, callee.Recv.List[0].Names, 0, depth); found {
					return false
				}
			}
			var params []*ast.Ident
			for _, fl := range callee.Type.Params.List {
				params = append(params, fl.Names...)
			}
			for i, arg := range n.Args {
				if held(arg) && i < len(params) {
					if found = u.follow(callee, params, i, depth); found {
						return false
					}
				}
			}
		}
		return true
	})
	return found
}

// follow asks uses of callee with the held value in names[i], its
// receiver or parameter.
func (u *syncUse) follow(callee *ast.FuncDecl, names []*ast.Ident, i, depth int) bool {
	if i >= len(names) {
		return false
	}
	obj := u.info.Defs[names[i]]
	if obj == nil || u.seen[obj] {
		return false
	}
	u.seen[obj] = true
	return u.uses(callee, func(e ast.Expr) bool {
		id, ok := strip(e).(*ast.Ident)
		return ok && u.info.Uses[id] == obj
	}, depth+1)
}

// strip removes parentheses, & and * around e.
func strip(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return e
			}
			e = x.X
		default:
			return e
		}
	}
}

// holdsSync names the first value of package sync or sync/atomic, or
// channel, that st holds in its fields or in those of the structs it
// holds by value (a few levels down), as "a sync.Mutex"; "" if none.
func holdsSync(st *types.Struct, depth int) string {
	for i := 0; i < st.NumFields(); i++ {
		t := types.Unalias(st.Field(i).Type())
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		switch t := t.(type) {
		case *types.Chan:
			return "a channel"
		case *types.Named:
			if pkg := t.Obj().Pkg(); pkg != nil && (pkg.Path() == "sync" || pkg.Path() == "sync/atomic") {
				if t.Obj().Name() == "WaitGroup" {
					// It waits for the type's own goroutines: it says
					// the type starts some, not that its callers share
					// it (wgwrongadd's Fetcher fans out inside FetchAll,
					// and two FetchAll calls on one Fetcher are the
					// caller's race).
					continue
				}
				name := pkg.Name() + "." + t.Obj().Name()
				if pkg.Path() == "sync/atomic" {
					return "an " + name
				}
				return "a " + name
			}
		}
		if inner, ok := types.Unalias(st.Field(i).Type()).Underlying().(*types.Struct); ok && depth < 3 {
			if what := holdsSync(inner, depth+1); what != "" {
				return what
			}
		}
	}
	return ""
}

// typeDoc is the doc comment of the type declared as obj in p's files.
func typeDoc(p *packages.Package, obj *types.TypeName) string {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || p.TypesInfo.Defs[ts.Name] != obj {
					continue
				}
				if ts.Doc != nil {
					return ts.Doc.Text()
				}
				if len(gd.Specs) == 1 && gd.Doc != nil {
					return gd.Doc.Text()
				}
				return ""
			}
		}
	}
	return ""
}

// safeDoc reports whether a doc comment says its type may be used by
// several goroutines at once, and does not say it is not.
func safeDoc(doc string) bool {
	doc = strings.Join(strings.Fields(strings.ToLower(doc)), " ")
	for _, m := range safePhrase.FindAllStringIndex(doc, -1) {
		if !negated.MatchString(doc[:m[0]]) {
			return true
		}
	}
	return false
}

// unsafeDoc reports whether a doc comment says its type is not safe for
// concurrent use ("is not safe for concurrent use", "not thread-safe").
func unsafeDoc(doc string) bool {
	doc = strings.Join(strings.Fields(strings.ToLower(doc)), " ")
	for _, m := range safePhrase.FindAllStringIndex(doc, -1) {
		if negated.MatchString(doc[:m[0]]) {
			return true
		}
	}
	return false
}

var (
	safePhrase = regexp.MustCompile(`safe for (concurrent|simultaneous|parallel) use|safe to use concurrently|safe for use by multiple goroutines|(goroutine|concurrency|thread)[- ]safe`)
	negated    = regexp.MustCompile(`(\bnot|n't|\bnever)( \w+)?( to be)? $`)
)

// cursor names the method that makes named a cursor, an iterator that
// one goroutine steps through, or "": an exported method Next, SetNext or
// Scan without parameters whose only result is a bool (bufio.Scanner's
// Scan, sql.Rows' Next, bigcache's EntryInfoIterator.SetNext). Its
// accessors return the element that its owner's last step chose, so two
// goroutines sharing one cannot tell whose element they read: a cursor
// is each goroutine's own, whatever lock it holds for its other work
// (sql.Rows locks for Close; bigcache's iterator locks while it loads
// the next shard, and its maintainers give each goroutine its own).
func cursor(named *types.Named) string {
	ms := types.NewMethodSet(types.NewPointer(named))
	for _, name := range []string{"Next", "SetNext", "Scan"} {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			continue
		}
		fn, ok := sel.Obj().(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
			continue
		}
		if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			return name
		}
	}
	return ""
}
