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
	imports := "; import (" + rtName + " " + strconv.Quote(w.ins.rtImport)
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
	// (another module's: RegisterQuiet) or, the main module's, are part
	// of the checked package's unit that called them; and a defer on
	// each of its calls would cost.
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
			fork := w.site(d.Name.Pos(), name)
			ins := " defer " + rtName + ".TestStart(" + t[0].Name + ")(); " + rtName + ".TestFork(" + t[0].Name + ", " + fork + ");"
			if w.ins.api.has("TestEnd") {
				// The end of the test writes t, racing with a goroutine
				// that still uses it (rt.TestEnd); deferred after
				// TestStart, it runs before the trace ends.
				end := w.site(d.Name.Pos(), testingObj)
				ins += " defer " + rtName + ".TestEnd(" + t[0].Name + ", " + end + ")();"
				if w.ins.api.has("Test") {
					// The three in one call (rt.Test): less to compile.
					ins = " defer " + rtName + ".Test(" + t[0].Name + ", " + fork + ", " + end + ")();"
				}
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
	r := rtName
	n := strconv.Itoa(w.n)
	fmt.Fprintf(&b, "\n\n// Code generated by pecanvet (instrumentation helpers). DO NOT EDIT.\n\n")
	// The runtime hands out the ids (rt.RegisterNext): the file's text
	// then depends on its package alone, not on the packages instrumented
	// before it in this build, and the go command's cache compiles it once
	// for all the checks of a vet run that import it.
	register := "RegisterNext"
	quiet := w.u.quiet()
	if quiet {
		register = "RegisterNextQuiet" // its plain accesses are not recorded
	}
	var loud func(Site) bool
	if quiet {
		// A quiet dep's plain access of a variable the dep itself accesses
		// through sync/atomic is recorded all the same (atomicVars).
		atomics := w.atomicVars()
		loud = func(s Site) bool { return atomics[s.Obj] }
	}
	if table, ok := siteTable(w.sites, loud); ok && w.ins.api.has("Sites") {
		// One string, decoded by rt.Sites, rather than a composite
		// literal that the compiler checks and lays out site by site.
		fmt.Fprintf(&b, "var pecanvetS__%s = %s.Sites(%t, %s)\n\n", n, r, quiet, strconv.Quote(table))
	} else {
		fmt.Fprintf(&b, "var pecanvetS__%s = %s.%s([]%s.Site{\n", n, r, register, r)
		for _, s := range w.sites {
			fmt.Fprintf(&b, "\t{Pos: %s, Obj: %s},\n", strconv.Quote(s.Pos), strconv.Quote(s.Obj))
		}
		fmt.Fprintf(&b, "})\n\n")
	}
	for _, ref := range sortedKeys(w.keepRefs) {
		fmt.Fprintf(&b, "var _ = %s // calls became runtime calls; keep the import used\n\n", ref)
	}
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

// siteTable encodes sites as rt.Sites decodes them: the path P of the
// first site's Pos, then a line per site, its Pos (":line:col" for
// P+":line:col"), a tab and its Obj; a line of a site that loud (if not
// nil) picks starts with a tab, which no Pos does: in a quiet file, its
// plain accesses are recorded all the same. It reports false when a site
// holds what the encoding cannot carry (a newline, a tab in a Pos, a Pos
// empty or starting with ':'); the sites are then a composite literal
// (of a quiet file, without its loud sites).
func siteTable(sites []Site, loud func(Site) bool) (string, bool) {
	path := ""
	if len(sites) > 0 {
		p := sites[0].Pos
		if i := strings.LastIndexByte(p, ':'); i > 0 {
			if j := strings.LastIndexByte(p[:i], ':'); j > 0 {
				path = p[:j]
			}
		}
	}
	if strings.ContainsAny(path, "\n\t") {
		return "", false
	}
	var b strings.Builder
	b.WriteString(path)
	b.WriteByte('\n')
	for _, s := range sites {
		if s.Pos == "" || strings.ContainsAny(s.Pos, "\n\t") || strings.Contains(s.Obj, "\n") {
			return "", false
		}
		if loud != nil && loud(s) {
			b.WriteByte('\t')
		}
		switch {
		case path != "" && strings.HasPrefix(s.Pos, path+":"):
			b.WriteString(s.Pos[len(path):])
		case strings.HasPrefix(s.Pos, ":"):
			return "", false
		default:
			b.WriteString(s.Pos)
		}
		b.WriteByte('\t')
		b.WriteString(s.Obj)
		b.WriteByte('\n')
	}
	return b.String(), true
}
