package driver

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
)

// meantForConcurrentUse says why values of named (a type of p) are meant
// to be used from several goroutines, or "" if nothing says so: it holds a
// value of package sync or sync/atomic or a channel (in a field, or in a
// field of a struct it holds), or its doc comment says it is safe for
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
		if what := holdsSync(st, 0); what != "" {
			return "it holds " + what
		}
	}
	if doc != "" && safeDoc(doc) {
		return "its doc says it is safe for concurrent use"
	}
	return ""
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
