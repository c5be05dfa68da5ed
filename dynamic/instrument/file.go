package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/static/driver"
	"github.com/pecanvet/pecanvet/static/locker"
)

// rewrite produces the instrumented text of the file, or nil if the file
// needs no change.
func (w *fileRW) rewrite() []byte {
	f := w.file
	w.sites = nil
	w.ntmp = 0
	w.useSync = false
	w.keepRefs = make(map[string]bool)
	var rs []repl
	for _, d := range f.Decls {
		if w.skip[d] {
			continue
		}
		rs = append(rs, rn(d, w.decl(d)))
	}
	// Everything after the imports.
	hdrEnd := f.Name.End()
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			hdrEnd = g.End()
		}
	}
	body := w.splice(hdrEnd, f.FileEnd, rs...)
	if body == nil {
		return nil // nothing to instrument
	}
	imports := "; import (" + rtName + " " + strconv.Quote(w.ins.rtImport) + "; " + unsafeName + ` "unsafe"`
	if w.useSync {
		imports += "; " + syncName + ` "sync"`
	}
	imports += ")"
	out := pcs{{s: string(w.src[:w.off(hdrEnd)])}}
	out = out.cat(gen(imports), body, gen(w.tail()))
	return w.render(out)
}

// decl rewrites a top-level declaration. A rewrite that fails (a bug of the
// instrumenter) leaves the declaration as it was, with a note.
func (w *fileRW) decl(d ast.Decl) (p pcs) {
	nsites := len(w.sites)
	defer func() {
		if r := recover(); r != nil {
			w.sites = w.sites[:nsites]
			w.fn = nil
			w.ins.notef("", "%s: not instrumented (instrumenter error: %v)", w.ins.fset.Position(d.Pos()), r)
			p = nil
		}
	}()
	switch d := d.(type) {
	case *ast.FuncDecl:
		return w.funcDecl(d)
	case *ast.GenDecl:
		w.fn = newFuncCtx("init", nil)
		defer func() { w.fn = nil }()
		return w.genDecl(d)
	}
	return nil
}

func (w *fileRW) funcDecl(d *ast.FuncDecl) pcs {
	if d.Body == nil {
		return nil
	}
	if d.Recv == nil && d.Name.Name == "pecanvetQuiet" && filepath.Base(w.path) == driver.File && w.ins.api.has("DriverQuiet") {
		// The generated driver's question whether its calls can still
		// return before its bound, which only the runtime can answer
		// (rt.DriverQuiet); uninstrumented, the driver's own body says
		// "wait on" (a nil channel).
		return w.nodeSplice(d, rn(d.Body, gen("{ return "+rtName+".DriverQuiet("+driverQuietParams(d)+") }")))
	}
	if d.Recv == nil && d.Name.Name == "pecanvetReplaying" && filepath.Base(w.path) == driver.File && w.ins.api.has("DriverReplaying") {
		// Whether a schedule is replayed (rt.DriverReplaying): a driver's
		// call that panics then ends the process at once, unjudged.
		return w.nodeSplice(d, rn(d.Body, gen("{ return "+rtName+".DriverReplaying() }")))
	}
	if fn, _ := w.info.Defs[d.Name].(*types.Func); d.Recv != nil && locker.Method(fn) && w.ins.api.has("Lock") {
		return nil // a lock of the user's own: see locker.Method
	}
	name := d.Name.Name
	recv := ""
	if d.Recv != nil && len(d.Recv.List) == 1 {
		if n := namedOf(w.typeOf(d.Recv.List[0].Type)); n != nil {
			recv = n.Obj().Name()
			name = recv + "." + name
		}
	}
	w.fn = newFuncCtx(name, d.Body)
	defer func() { w.fn = nil }()
	// The deferred read of the results goes first, so that it runs last,
	// after the unit of work ended: the return's read follows it at once.
	w.fn.results = w.heapResults(d.Type)
	insert := w.resultReads(w.fn.results)
	// A dep's methods are no units: their accesses are not recorded
	// (RegisterQuiet), and a defer on each of its calls would cost.
	if recv != "" && !w.u.dep && w.ins.api.has("RegionBegin") && w.ins.api.has("RegionEnd") {
		site := w.site(d.Name.Pos(), name)
		insert = insert.cat(gen(" " + rtName + ".RegionBegin(" + site + "); defer " + rtName + ".RegionEnd(" + site + ");"))
	}
	// A TestMain of the package's own may return instead of calling
	// os.Exit (which becomes rt.Exit): the trace ends when it returns.
	if d.Recv == nil && name == "TestMain" && strings.HasSuffix(w.path, "_test.go") && w.ins.api.has("Finish") {
		insert = gen(" defer " + rtName + ".Finish();")
		if !callsRun(d) && w.ins.api.has("EndWithTest") {
			// It hands m on, and the os.Exit after m.Run is not ours.
			insert = gen(" " + rtName + ".EndWithTest(); defer " + rtName + ".Finish();")
		}
	} else if recv == "" && w.isTestFunc(d) && w.ins.api.has("Drain") {
		// Deferred first, so it runs last: after the test's own deferred
		// calls, while the test still runs (see rt.Drain). Called first,
		// it starts the test's trace (rt.TestStart), if t has a name to
		// pass.
		insert = gen(" defer " + rtName + ".Drain();")
		if t := d.Type.Params.List[0].Names; len(t) == 1 && t[0].Name != "_" && w.ins.api.has("TestStart") && w.ins.api.has("TestFork") {
			// The test's trace starts, and its end is deferred first
			// (rt.TestStart); then the test goroutine becomes a child of
			// the main goroutine, which ran package initialization and
			// TestMain before m.Run: what they did happens before the
			// test (rt.TestFork).
			ins := " defer " + rtName + ".TestStart(" + t[0].Name + ")(); " + rtName + ".TestFork(" + t[0].Name + ", " + w.site(d.Name.Pos(), name) + ");"
			if w.ins.api.has("TestEnd") {
				// The end of the test writes t, racing with a goroutine
				// that still uses it (rt.TestEnd); deferred after
				// TestStart, it runs before the trace ends.
				ins += " defer " + rtName + ".TestEnd(" + t[0].Name + ", " + w.site(d.Name.Pos(), testingObj) + ")();"
			}
			insert = gen(ins)
		}
	}
	return w.nodeSplice(d, rn(d.Body, w.blockIns(d.Body, insert)))
}

// tail is appended to the file: the helpers the rewritten code calls and
// the registration of the file's sites. The sites' ids are passed as
// pecanvetS__N+k: referring to the variable makes every function that
// records something depend on the registration in Go's initialization
// order, so that even package-level initializers of other files find the
// sites registered.
func (w *fileRW) tail() string {
	var b strings.Builder
	r, u := rtName, unsafeName
	n := strconv.Itoa(w.n)
	fmt.Fprintf(&b, "\n\n// Code generated by pecanvet (instrumentation helpers). DO NOT EDIT.\n\n")
	// The runtime hands out the ids (rt.RegisterNext): the file's text
	// then depends on its package alone, not on the packages instrumented
	// before it in this build, and the go command's cache compiles it once
	// for all the checks of a vet run that import it.
	register := "RegisterNext"
	if w.u.dep {
		register = "RegisterNextQuiet" // its plain accesses are not recorded
	}
	fmt.Fprintf(&b, "var pecanvetS__%s = %s.%s([]%s.Site{\n", n, r, register, r)
	for _, s := range w.sites {
		fmt.Fprintf(&b, "\t{Pos: %s, Obj: %s},\n", strconv.Quote(s.Pos), strconv.Quote(s.Obj))
	}
	fmt.Fprintf(&b, "})\n\n")
	for _, ref := range sortedKeys(w.keepRefs) {
		fmt.Fprintf(&b, "var _ = %s // calls became runtime calls; keep the import used\n\n", ref)
	}
	fmt.Fprintf(&b, "func pecanvetR__%s[T interface{}](p *T, s int32) *T { %s.R(%s.Pointer(p), s); return p }\n", n, r, u)
	fmt.Fprintf(&b, "func pecanvetW__%s[T interface{}](p *T, s int32) *T { %s.W(%s.Pointer(p), s); return p }\n", n, r, u)
	fmt.Fprintf(&b, "func pecanvetRV__%s[T interface{}](p *T, s int32) *T { %s.RV(p, s); return p }\n", n, r)
	fmt.Fprintf(&b, "func pecanvetWV__%s[T interface{}](p *T, s int32) *T { %s.WV(p, s); return p }\n", n, r)
	fmt.Fprintf(&b, "func pecanvetRW__%s[T interface{}](p *T, s int32) *T { %s.R(%s.Pointer(p), s); %s.W(%s.Pointer(p), s); return p }\n", n, r, u, r, u)
	fmt.Fprintf(&b, "func pecanvetMR__%s[M interface{}](m M, s int32) M { if p := pecanvetmp__%s(m); p != nil { %s.R(p, s) }; return m }\n", n, n, r)
	fmt.Fprintf(&b, "func pecanvetMW__%s[M interface{}](m M, s int32) M { if p := pecanvetmp__%s(m); p != nil { %s.W(p, s) }; return m }\n", n, n, r)
	fmt.Fprintf(&b, "func pecanvetMRW__%s[M interface{}](m M, s int32) M { if p := pecanvetmp__%s(m); p != nil { %s.R(p, s); %s.W(p, s) }; return m }\n", n, n, r, r)
	if w.keyHelpers() {
		// An element's access, its key hashed (keyAgain, rt/mapkey.go).
		fmt.Fprintf(&b, "func pecanvetMRK__%s[M interface{}](m M, k interface{}, s int32) M { if p := pecanvetmp__%s(m); p != nil { %s.RK(p, %s.KeyHash(k), s) }; return m }\n", n, n, r, r)
		fmt.Fprintf(&b, "func pecanvetMWK__%s[M interface{}](m M, k interface{}, s int32) M { if p := pecanvetmp__%s(m); p != nil { %s.WK(p, %s.KeyHash(k), s) }; return m }\n", n, n, r, r)
		fmt.Fprintf(&b, "func pecanvetMRWK__%s[M interface{}](m M, k interface{}, s int32) M { if p := pecanvetmp__%s(m); p != nil { h := %s.KeyHash(k); %s.RK(p, h, s); %s.WK(p, h, s) }; return m }\n", n, n, r, r, r)
	}
	fmt.Fprintf(&b, "func pecanvetmp__%s(m interface{}) %s.Pointer { return (*[2]%s.Pointer)(%s.Pointer(&m))[1] }\n", n, u, u, u)
	fmt.Fprintf(&b, "func pecanvetE__%s[T interface{}](c chan<- T) (z T) { return }\n", n)
	// Range over a slice's elements, each read recorded (rangeElems).
	fmt.Fprintf(&b, "func pecanvetRS__%s[S ~[]E, E interface{}](x S, s int32) func(func(int, E) bool) { return func(y func(int, E) bool) { for i := range x { if !y(i, *pecanvetR__%s(&x[i], s)) { return } } } }\n", n, n)
	// copy and append: the elements they read and write (builtins.go).
	// Elements are recorded part by part (rt.RRangeV): copying a slice of
	// structs conflicts with a write of one element's field.
	fmt.Fprintf(&b, "func pecanvetCP__%s[D ~[]E, S ~[]E, E interface{}](d D, x S, sw, sr int32) int { if k := pecanvetmin__%s(len(d), len(x)); k > 0 { %s.RRangeV(&x[0], k, sr); %s.WRangeV(&d[0], k, sw) }; return copy(d, x) }\n", n, n, r, r)
	fmt.Fprintf(&b, "func pecanvetCPS__%s[D ~[]byte, S ~string](d D, x S, sw int32) int { if k := pecanvetmin__%s(len(d), len(x)); k > 0 { %s.WRange(%s.Pointer(&d[0]), k, 1, sw) }; return copy(d, x) }\n", n, n, r, u)
	fmt.Fprintf(&b, "func pecanvetAP__%s[S ~[]E, E interface{}](x S, sw int32, v ...E) S { pecanvetapp__%s(x, len(v), sw); return append(x, v...) }\n", n, n)
	fmt.Fprintf(&b, "func pecanvetAPS__%s[S ~[]E, V ~[]E, E interface{}](x S, v V, sw, sr int32) S { pecanvetapp__%s(x, len(v), sw); if len(v) > 0 { %s.RRangeV(&v[0], len(v), sr) }; return append(x, v...) }\n", n, n, r)
	fmt.Fprintf(&b, "func pecanvetAPSS__%s[S ~[]byte, V ~string](x S, v V, sw int32) S { pecanvetapp__%s(x, len(v), sw); return append(x, v...) }\n", n, n)
	// string(b) of a []byte or []rune reads its elements (conversionRead).
	fmt.Fprintf(&b, "func pecanvetSR__%s[S ~[]E, E interface{}](x S, s int32) S { if len(x) > 0 { %s.RRangeV(&x[0], len(x), s) }; return x }\n", n, r)
	fmt.Fprintf(&b, "func pecanvetapp__%s[S ~[]E, E interface{}](x S, k int, sw int32) S { if k == 0 { return x }; if len(x)+k <= cap(x) { y := x[:len(x)+k]; %s.WRangeV(&y[len(x)], k, sw) } else if len(x) > 0 { %s.RRangeV(&x[0], len(x), sw) }; return x }\n", n, r, r)
	// Readers and writers the recorder does not see into (iocall.go).
	fmt.Fprintf(&b, "func pecanvetIORD__%s[B ~[]byte](f func(B) (int, error), p B, s int32) (int, error) { k, err := f(p); if k > 0 && k <= len(p) { %s.WRangeV(&p[0], k, s) }; return k, err }\n", n, r)
	fmt.Fprintf(&b, "func pecanvetIORA__%s[B ~[]byte](f func(B, int64) (int, error), p B, off int64, s int32) (int, error) { k, err := f(p, off); if k > 0 && k <= len(p) { %s.WRangeV(&p[0], k, s) }; return k, err }\n", n, r)
	fmt.Fprintf(&b, "func pecanvetIOWR__%s[B ~[]byte](f func(B) (int, error), p B, s int32) (int, error) { k, err := f(p); if k > 0 && k <= len(p) { %s.RRangeV(&p[0], 1, s) }; return k, err }\n", n, r)
	fmt.Fprintf(&b, "func pecanvetmin__%s(a, b int) int { if a < b { return a }; return b }\n", n)
	return b.String()
}

// rewriteUnit rewrites the files of a unit. The result is type-checked;
// statements whose rewrite does not type-check (which would be a bug of
// the instrumenter) are left uninstrumented and the unit is rewritten again.
func (ins *instrumenter) rewriteUnit(u *unit, heap map[token.Pos]bool, srcs [][]byte) ([][]byte, error) {
	skip := make(map[ast.Node]bool)
	firstSite := len(ins.sites)
	for attempt := 0; ; attempt++ {
		ins.sites = ins.sites[:firstSite]
		out := make([][]byte, len(u.files))
		rws := make([]*fileRW, len(u.files))
		for i, f := range u.files {
			info := u.pkg.TypesInfo
			if f.cgoTwin != nil {
				info = cgoInfo(ins.fset, f.syntax, f.cgoTwin, info)
			}
			w := &fileRW{
				ins:  ins,
				u:    u,
				info: info,
				pkg:  u.pkg.Types,
				tf:   ins.fset.File(f.syntax.Pos()),
				file: f.syntax,
				src:  srcs[i],
				path: f.path,
				n:    i, // names the file's helpers, unique in its package
				heap: heap,
				skip: skip,
			}
			w.hasLineDirectives = bytes.Contains(w.src, []byte("//line ")) || bytes.Contains(w.src, []byte("/*line "))
			out[i] = w.rewrite()
			tag := ins.langTag
			if u.mod != nil {
				// Another module's file: its own go line decides.
				tag = needsLangTag(u.mod.GoVersion)
			}
			if out[i] != nil && tag {
				out[i] = withLangTag(f.path, out[i])
			}
			if out[i] != nil {
				ins.sites = append(ins.sites, w.sites...)
			}
			rws[i] = w
		}
		errs := ins.check(u, out, srcs)
		if len(errs) == 0 {
			return out, nil
		}
		added := 0
		for _, e := range errs {
			if n := ins.culprit(u, e); n != nil && !skip[n] {
				skip[n] = true
				added++
			}
		}
		if added == 0 || attempt > 20 {
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Error())
			}
			return nil, fmt.Errorf("instrumented %s does not type-check:\n%s", u.pkg.PkgPath, strings.Join(msgs, "\n"))
		}
		for _, e := range errs {
			ins.notef(u.pkg.PkgPath, "instrumentation dropped where it did not type-check: %v", e)
		}
	}
}

// culprit returns the innermost statement (or declaration) of the unit's
// files that covers the position of type error e.
func (ins *instrumenter) culprit(u *unit, e checkError) ast.Node {
	pos := e.pos
	for _, f := range u.files {
		if f.path != pos.Filename {
			continue
		}
		var best ast.Node
		bestSize := -1
		ast.Inspect(f.syntax, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			switch n.(type) {
			case ast.Stmt, ast.Decl:
			default:
				return true
			}
			if _, ok := n.(*ast.BlockStmt); ok {
				return true
			}
			start, end := ins.fset.Position(n.Pos()), ins.fset.Position(n.End())
			if start.Line <= pos.Line && pos.Line <= end.Line {
				size := int(n.End() - n.Pos())
				if best == nil || size < bestSize {
					best, bestSize = n, size
				}
				return true
			}
			return false
		})
		return best
	}
	return nil
}

// notef notes what was left uninstrumented, in package pkg if not "".
func (ins *instrumenter) notef(pkg, format string, args ...any) {
	ins.notes = append(ins.notes, note.New(note.Instrument, pkg, "", format, args...))
}

// isTestFunc reports whether d is a test function of a _test.go file:
// TestXxx(t *testing.T).
func (w *fileRW) isTestFunc(d *ast.FuncDecl) bool {
	if !strings.HasSuffix(w.path, "_test.go") || d.Type.TypeParams != nil {
		return false
	}
	name := d.Name.Name
	if !strings.HasPrefix(name, "Test") || name == "TestMain" {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(name[len("Test"):]); unicode.IsLower(r) {
		return false
	}
	params := d.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 || d.Type.Results != nil {
		return false
	}
	ptr, ok := w.typeOf(params[0].Type).(*types.Pointer)
	if !ok {
		return false
	}
	n := namedOf(ptr.Elem())
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == "T"
}

// driverQuietParams are the names of the generated driver's
// pecanvetQuiet parameters (the bound's end, the calls' done channel),
// as the call of rt.DriverQuiet passes them.
func driverQuietParams(d *ast.FuncDecl) string {
	var names []string
	for _, p := range d.Type.Params.List {
		for _, n := range p.Names {
			names = append(names, n.Name)
		}
	}
	if len(names) != 2 {
		panic("pecanvetQuiet: not func(end time.Time, done chan struct{}) <-chan struct{}")
	}
	return strings.Join(names, ", ")
}

// callsRun reports whether TestMain d calls Run on its *testing.M itself.
func callsRun(d *ast.FuncDecl) bool {
	if d.Type.Params == nil || len(d.Type.Params.List) != 1 || len(d.Type.Params.List[0].Names) != 1 {
		return false
	}
	m := d.Type.Params.List[0].Names[0].Name
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && len(c.Args) == 0 {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == m {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
