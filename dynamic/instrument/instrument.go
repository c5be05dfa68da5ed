package instrument

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/dynamic"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/internal/tmpdir"
	"github.com/pecanvet/pecanvet/static/load"
)

// Options say what to instrument.
type Options struct {
	Dir        string   // working directory (a directory inside the user's module)
	Patterns   []string // package patterns, e.g. "./..." or "."
	BuildFlags []string // passed to the go command that loads the packages (e.g. -tags)
	// Extra adds files (absolute path → content) to the packages, as if
	// they were on disk — generated test drivers. They are instrumented and
	// added to the overlay like the package's own files.
	Extra map[string][]byte
	// Packages, if not nil, are the packages to instrument, loaded already
	// (static/load); Dir, Patterns and BuildFlags are then theirs.
	// Instrument does not change them.
	Packages *load.Packages
}

// Site is one instrumented operation. Its id at run time is handed out by
// the runtime (rt.RegisterNext) in package initialization order.
type Site struct {
	Pos string // module-relative slash path ":" line ":" column (bytes, 1-based)
	Obj string // static description of the object ("Counter.n", "chan int", ...)
}

// Package is one instrumented package.
type Package struct {
	ImportPath string
	Dir        string
	Files      []string // original paths of the files rewritten (including _test.go files)
	Tests      bool     // the package has test files (they were instrumented too)
}

// Result is an instrumented build, ready for
// `go test -overlay=<Overlay> -vet=off <import paths>`.
type Result struct {
	Dir      string    // temp dir holding rewritten files, the runtime copy and overlay.json
	Overlay  string    // path of overlay.json
	Packages []Package // instrumented packages
	// Deps are the packages that Packages import, directly or not,
	// instrumented too but without their tests: the main module's
	// (moduleDeps) and those of other modules that start goroutines.
	Deps  []string
	Notes []note.Note // things worth telling the user, e.g. about cgo files
	Sites []Site      // every site, in the order instrumented

	// RuntimeDir is the directory of the runtime module (in pecanvet's cache,
	// see runtimeCacheDir, or inside Dir): a copy
	// of dynamic/rt and dynamic/trace that the overlaid go.mod of the
	// user's module requires and replaces. RuntimeImport is the import path
	// of its package rt.
	RuntimeDir    string
	RuntimeImport string
}

// Cleanup removes the temporary directory.
func (r *Result) Cleanup() error {
	if r == nil || r.Dir == "" {
		return nil
	}
	return tmpdir.Remove(r.Dir)
}

// runtimeModulePrefix starts the module path of the runtime copy; a hash
// of the runtime's source follows. The .invalid domain cannot be fetched:
// the module only exists through the overlaid go.mod's replace directive.
const runtimeModulePrefix = "pecanvet.invalid/rt_"

// vendored reports whether the go command builds mod in vendor mode.
func vendored(mod *packages.Module, flags []string) bool {
	if _, err := os.Stat(filepath.Join(mod.Dir, "vendor", "modules.txt")); err != nil {
		return false
	}
	for _, f := range append(strings.Fields(os.Getenv("GOFLAGS")), flags...) {
		if f == "-mod=mod" || f == "-mod=readonly" {
			return false
		}
	}
	return true
}

// Instrument loads the packages matched by opt.Patterns (with their tests),
// rewrites every Go file of those that belong to the main module into a
// temporary directory and returns the overlay that substitutes them. The
// user's files are never written. A package that does not type-check is an
// error carrying the type checker's messages; nothing is written then.
func Instrument(ctx context.Context, opt Options) (*Result, error) {
	loaded := opt.Packages
	if loaded == nil {
		var err error
		if loaded, err = load.LoadFor(ctx, opt.Dir, opt.Patterns, opt.BuildFlags, SourceDeps(opt.BuildFlags)); err != nil {
			return nil, err
		}
	}
	dir, patterns, fset := loaded.Dir, loaded.Patterns, loaded.Fset
	// `go env GOWORK` is a process of its own (50-90 ms): it runs while
	// the packages are rewritten.
	work := make(chan string, 1)
	go func() { work <- goWork(ctx, dir) }()
	cfg := loaded.Config(ctx)
	// A list of its own: joinExtra puts a copy of a package in the place
	// of the loaded one.
	pkgs := slices.Clone(loaded.List)
	if err := loadErrors(pkgs); err != nil {
		return nil, err
	}
	exports := newStdExports(ctx, pkgs, opt.Extra)
	extraNotes := joinExtra(pkgs, opt.Extra, exports)

	rtFiles, err := dynamic.RuntimeFiles()
	if err != nil {
		return nil, fmt.Errorf("reading the embedded runtime: %w", err)
	}
	api, err := parseRuntimeAPI(rtFiles)
	if err != nil {
		return nil, err
	}

	units, notes, mod, hasTestMain := selectFiles(pkgs)
	notes = append(notes, extraNotes...)
	if mod == nil {
		return nil, fmt.Errorf("no package of the main module matches %s", strings.Join(patterns, " "))
	}
	hash := runtimeHash(rtFiles)
	rtModule := runtimeModulePrefix + hash
	rtImport, traceImport := rtModule+"/rt", rtModule+"/trace"
	vendor := vendored(mod, loaded.BuildFlags)
	if vendor {
		rtImport, traceImport = vendorRuntimeImports(mod.Path, hash)
	}
	ins := &instrumenter{
		fset:     fset,
		api:      api,
		modDir:   mod.Dir,
		rtImport: rtImport,
		extra:    opt.Extra,
		langTag:  needsLangTag(mod.GoVersion),
		exports:  exports,
	}
	type output struct {
		orig string
		src  []byte
	}
	var outs []output
	pkgByPath := make(map[string]*Package)
	var pkgOrder []string
	// A vendored module's other modules are read from vendor/, where the
	// runtime is not: they stay as they are.
	mine, others := moduleDeps(cfg, pkgs, mod, !vendor)
	loadedDeps := loadDeps(loaded, cfg, append(mine, others...))
	modUnits, depNotes, _, _ := selectFiles(loadedDeps)
	notes = append(notes, depNotes...)
	// The other modules' packages first: their rewritten files carry site
	// ids from 0 up, which then do not move when the user's packages
	// change, so their module's copy (depModuleDir) and its compiled
	// packages are reused from one check to the next.
	depUnits := append(selectDeps(loadedDeps), modUnits...)
	var deps []string
	// The rewritten files of modules in the module cache, by module: the
	// go command takes no overlay of a file there, so such a module is
	// replaced by a copy (depModuleDir).
	// By path: each package has a Module of its own.
	cached := map[string]map[string][]byte{}
	var cachedOrder []*packages.Module
	for _, u := range depUnits {
		u.dep = true
		if u.mod != nil {
			if r := u.mod.Replace; r != nil && r.Version != "" {
				continue // replaced by another version: a second replace would conflict
			}
			if ins.depMod(filepath.Join(u.mod.Dir, "x")) == nil {
				ins.depMods = append(ins.depMods, u.mod)
			}
		}
		rewritten, err := ins.instrumentUnit(u)
		if err != nil {
			continue // left as it is: only its events are missing
		}
		deps = append(deps, u.pkg.PkgPath)
		for i, f := range u.files {
			if rewritten[i] == nil {
				continue
			}
			if u.mod != nil && u.mod.Replace == nil {
				files := cached[u.mod.Path]
				if files == nil {
					files = map[string][]byte{}
					cached[u.mod.Path] = files
					cachedOrder = append(cachedOrder, u.mod)
				}
				rel, err := filepath.Rel(u.mod.Dir, f.path)
				if err != nil || strings.HasPrefix(rel, "..") {
					continue
				}
				files[filepath.ToSlash(rel)] = rewritten[i]
				continue
			}
			outs = append(outs, output{f.path, rewritten[i]})
		}
	}
	for _, u := range units {
		rewritten, err := ins.instrumentUnit(u)
		if err != nil {
			return nil, err
		}
		key := u.pkg.PkgPath
		if isXTest(u.pkg) {
			key = strings.TrimSuffix(key, "_test")
		}
		p := pkgByPath[key]
		if p == nil {
			p = &Package{ImportPath: key, Dir: u.dir}
			pkgByPath[key] = p
			pkgOrder = append(pkgOrder, key)
		}
		for _, f := range u.files {
			p.Files = append(p.Files, f.path)
			if strings.HasSuffix(f.path, "_test.go") {
				p.Tests = true
			}
		}
		for i, f := range u.files {
			if rewritten[i] != nil {
				outs = append(outs, output{f.path, rewritten[i]})
			} else if b, ok := opt.Extra[f.path]; ok {
				outs = append(outs, output{f.path, b})
			}
		}
	}
	// A TestMain for every tested directory that has none.
	if api.has("Finish") {
		done := make(map[string]bool)
		for _, u := range units {
			if done[u.dir] || !u.tests || hasTestMain[u.dir] {
				continue
			}
			done[u.dir] = true
			pkgName := u.pkg.Name
			if isXTest(u.pkg) {
				pkgName = strings.TrimSuffix(pkgName, "_test")
			}
			name, src := ins.testMainFile(u.dir, pkgName)
			outs = append(outs, output{name, []byte(src)})
		}
	}

	// Write everything.
	tmp, err := tmpdir.Make("pecanvet-instr-")
	if err != nil {
		return nil, err
	}
	rtDir := filepath.Join(tmp, "runtime")
	res := &Result{
		Dir:           tmp,
		Overlay:       filepath.Join(tmp, "overlay.json"),
		Notes:         dedup(append(notes, ins.notes...)),
		Sites:         ins.sites,
		Deps:          deps,
		RuntimeDir:    rtDir,
		RuntimeImport: rtImport,
	}
	for _, k := range pkgOrder {
		res.Packages = append(res.Packages, *pkgByPath[k])
	}
	replace := make(map[string]string)
	fail := func(err error) (*Result, error) {
		tmpdir.Remove(tmp)
		return nil, err
	}
	for i, o := range outs {
		name := filepath.Join(tmp, "src", fmt.Sprintf("%04d_%s", i, filepath.Base(o.orig)))
		if err := writeFile(name, o.src); err != nil {
			return fail(err)
		}
		replace[o.orig] = name
	}
	// The runtime is a module of its own in the temp dir (real files: the
	// assembler runs in the package's directory, which an overlay cannot
	// create), required and replaced by the overlaid go.mod of the user's
	// module. In vendor mode the go command takes no module from outside
	// vendor/, and vendor/modules.txt, which would have to list it, is not
	// read through the overlay: the runtime's packages are overlaid into
	// the main module instead (vendorRuntimeImports).
	traceOld := strconv.Quote("github.com/pecanvet/pecanvet/dynamic/trace")
	traceNew := strconv.Quote(traceImport)
	runtime := make(map[string][]byte)
	for _, k := range sortedKeys(rtFiles) {
		b := rtFiles[k]
		if strings.HasPrefix(k, "rt/") {
			b = []byte(strings.ReplaceAll(string(b), traceOld, traceNew))
		}
		if strings.HasSuffix(k, ".go") {
			// The line directive names the file by its base name, which
			// the compiler takes relative to the file's own directory: a
			// path naming this run's temp dir would make the content, and
			// so the cached runtime's directory, new on every run, and the
			// runtime would be compiled again each time.
			b = withLangTag(path.Base(k), b)
		}
		runtime[k] = b
	}
	if vendor {
		for k, b := range runtime {
			name := filepath.Join(rtDir, filepath.FromSlash(k))
			if err := writeFile(name, b); err != nil {
				return fail(err)
			}
			replace[vendorRuntimePath(mod, hash, k)] = name
		}
		return res, writeOverlay(res.Overlay, replace, fail)
	}
	runtime["go.mod"] = []byte(runtimeGoMod(rtModule, mod.GoVersion))
	if d, ok := runtimeCacheDir(runtime); ok {
		rtDir = d
		res.RuntimeDir = d
	} else {
		for k, b := range runtime {
			if err := writeFile(filepath.Join(rtDir, filepath.FromSlash(k)), b); err != nil {
				return fail(err)
			}
		}
	}
	// The copies of the modules whose files were rewritten in the module
	// cache, as replace directives of the overlaid go.mod or go.work.
	var modReplace strings.Builder
	for i, m := range cachedOrder {
		d, err := depModuleDir(m, cached[m.Path], tmp)
		if err != nil {
			return fail(err)
		}
		if i == 0 {
			modReplace.WriteString("// Added by pecanvet: the modules whose goroutines are recorded, instrumented.\n")
		}
		fmt.Fprintf(&modReplace, "replace %s => %s\n", m.Path, strconv.Quote(filepath.ToSlash(d)))
	}
	// In a workspace the runtime joins the workspace (an overlaid go.work
	// with one more use line) rather than the module's requirements: a new
	// requirement makes the go command load the whole module graph, which
	// fails in workspaces whose modules require each other at versions
	// that exist only in the workspace.
	if work := <-work; work != "" {
		b, err := os.ReadFile(work)
		if err != nil {
			return fail(err)
		}
		b = append(b, fmt.Sprintf("\n// Added by pecanvet: the recorder runtime.\nuse %s\n", strconv.Quote(filepath.ToSlash(rtDir)))...)
		b = append(b, "\n"+modReplace.String()...)
		workCopy := filepath.Join(tmp, "go.work")
		if err := writeFile(workCopy, b); err != nil {
			return fail(err)
		}
		replace[work] = workCopy
		return res, writeOverlay(res.Overlay, replace, fail)
	}
	gomod, err := os.ReadFile(mod.GoMod)
	if err != nil {
		return fail(err)
	}
	gomod = append(gomod, fmt.Sprintf("\n// Added by pecanvet: the recorder runtime.\nrequire %s v0.0.0\n\nreplace %s => %s\n",
		rtModule, rtModule, strconv.Quote(filepath.ToSlash(rtDir)))...)
	gomod = append(gomod, "\n"+modReplace.String()...)
	goModCopy := filepath.Join(tmp, "go.mod")
	if err := writeFile(goModCopy, gomod); err != nil {
		return fail(err)
	}
	replace[mod.GoMod] = goModCopy
	return res, writeOverlay(res.Overlay, replace, fail)
}

// writeOverlay writes the overlay file; on failure it cleans up with fail.
func writeOverlay(name string, replace map[string]string, fail func(error) (*Result, error)) error {
	js, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err == nil {
		err = writeFile(name, js)
	}
	if err != nil {
		_, err = fail(err)
	}
	return err
}

func dedup[T comparable](list []T) []T {
	seen := make(map[T]bool)
	var out []T
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// isXTest reports whether p is an external test package (p_test).
func isXTest(p *packages.Package) bool {
	return strings.HasSuffix(p.Name, "_test") && strings.Contains(p.ID, "_test [")
}

func writeFile(name string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, b, 0o644)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// runtimeHash names the runtime's directory: it changes when the runtime
// does, so builds with different runtimes never share a package path.
func runtimeHash(files map[string][]byte) string {
	h := sha256.New()
	for _, k := range sortedKeys(files) {
		fmt.Fprintf(h, "%s %d\n", k, len(files[k]))
		h.Write(files[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// versionLess compares Go versions such as "1.17" and "1.21.3".
func versionLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(strings.TrimFunc(pa[i], func(r rune) bool { return r < '0' || r > '9' }))
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// loadErrors returns the errors of the loaded packages (and their
// dependencies) in the compiler's format, one per line.
func loadErrors(pkgs []*packages.Package) error {
	var msgs []string
	seen := make(map[string]bool)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			s := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				s = e.Pos + ": " + e.Msg
			}
			if !seen[s] {
				seen[s] = true
				msgs = append(msgs, s)
			}
		}
	})
	if len(msgs) == 0 {
		return nil
	}
	return &LoadError{Messages: msgs}
}

// LoadError reports packages that do not load or type-check. Messages are
// the go command's and the type checker's own, "file:line:col: msg".
type LoadError struct {
	Messages []string
}

func (e *LoadError) Error() string {
	return "packages do not type-check:\n" + strings.Join(e.Messages, "\n")
}

// Cgo reports whether cgo failed: no C compiler, or one that failed.
func (e *LoadError) Cgo() bool {
	for _, m := range e.Messages {
		if strings.Contains(m, "C compiler") || strings.Contains(m, "cgo") {
			return true
		}
	}
	return false
}

// A unit is one package variant whose files are rewritten together: the
// types and the SSA escape facts of those files come from pkg.
type unit struct {
	pkg   *packages.Package
	dir   string
	files []unitFile
	tests bool // the unit has _test.go files
	// dep: a package that the checked ones import (moduleDeps). A dep of
	// the main module is recorded whole; the plain memory accesses of one
	// of another module (mod) are not, but those of the words it
	// accesses atomically (quiet, fileRW.atomicVars).
	dep bool
	// mod: for a dep of another module (moduleDeps), that module: its files'
	// language version and the name of its files in the site table.
	mod *packages.Module

	mutexVals map[*types.Var]bool // see fileRW.mutexValues
	atomics   map[string]bool     // see fileRW.atomicVars
}

// quiet reports whether the unit's plain memory accesses are left out of
// the trace (rt.RegisterQuiet): a dep of another module's. A dep of the
// main module is recorded like the checked packages: the checked
// package's goroutines that call into a helper package of the module
// race there as go test -race sees them (transport-go's bus: handler
// goroutines calling its log package, which writes fatih/color's
// NoColor), while the helper's own tests may never run it concurrently.
// Another module's races are its own maintainers' business, and its
// code (reached only when it runs the caller's functions, moduleDeps)
// would lengthen every trace.
func (u *unit) quiet() bool {
	return u.dep && u.mod != nil
}

type unitFile struct {
	path    string
	syntax  *ast.File
	cgoTwin *ast.File // for a cgo file: the file cgo generated from it, which go/packages type-checked
}

// selectFiles chooses, for every Go file of a root package of the main
// module, the package variant that instruments it: the test variant
// "p [p.test]" (which holds p's files and its in-package _test.go files),
// the external test package "p_test [p.test]", or p itself when it has no
// tests. cgo files are noted and left alone.
func selectFiles(pkgs []*packages.Package) ([]*unit, []note.Note, *packages.Module, map[string]bool) {
	var mod *packages.Module
	hasTestMain := make(map[string]bool)
	// Test variants first, so that they claim the files they share with p.
	sorted := append([]*packages.Package(nil), pkgs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		ti, tj := strings.Contains(sorted[i].ID, " ["), strings.Contains(sorted[j].ID, " [")
		if ti != tj {
			return ti
		}
		return sorted[i].ID < sorted[j].ID
	})
	claimed := make(map[string]bool)
	var units []*unit
	var notes []note.Note
	noted := make(map[string]bool)
	for _, p := range sorted {
		if p.Module == nil || !p.Module.Main || strings.HasSuffix(p.ID, ".test") || p.Types == nil {
			continue
		}
		if mod == nil {
			mod = p.Module
		}
		if p.Module.Path != mod.Path {
			continue // another workspace module: its runtime would need its own copy
		}
		u := &unit{pkg: p}
		if _, ok := p.Types.Scope().Lookup("TestMain").(*types.Func); ok && len(p.GoFiles) > 0 {
			hasTestMain[filepath.Dir(p.GoFiles[0])] = true
		}
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if claimed[name] || !isOriginal(p, name) {
				continue
			}
			claimed[name] = true
			u.files = append(u.files, unitFile{path: name, syntax: f})
			if strings.HasSuffix(name, "_test.go") {
				u.tests = true
			}
			if u.dir == "" {
				u.dir = filepath.Dir(name)
			}
		}
		// cgo files: go/packages type-checked the files cgo generated from
		// them (whose line directives point back at the originals); the
		// original is rewritten with the types of its generated twin.
		cgoTwin := make(map[string]*ast.File)
		for _, f := range p.Syntax {
			if name := p.Fset.Position(f.Package).Filename; isOriginal(p, name) && p.Fset.File(f.Pos()).Name() != name {
				cgoTwin[name] = f
			}
		}
		for _, name := range p.GoFiles {
			if claimed[name] || !isOriginal(p, name) || noted[name] {
				continue
			}
			noted[name] = true
			claimed[name] = true
			pkgPath := p.PkgPath
			if isXTest(p) {
				pkgPath = strings.TrimSuffix(pkgPath, "_test")
			}
			if twin := cgoTwin[name]; twin != nil {
				if f, err := parser.ParseFile(p.Fset, name, nil, parser.ParseComments|parser.SkipObjectResolution); err == nil {
					u.files = append(u.files, unitFile{path: name, syntax: f, cgoTwin: twin})
					notes = append(notes, note.New(note.Instrument, pkgPath, "", "cgo file %s: Go code instrumented, C code not", filepath.Base(name)))
					if u.dir == "" {
						u.dir = filepath.Dir(name)
					}
					continue
				}
			}
			if importsC(p.Fset, name) {
				notes = append(notes, note.New(note.Instrument, pkgPath, "", "cgo file %s: copied unchanged (its Go code is not instrumented; C code never is)", filepath.Base(name)))
			}
		}
		if len(u.files) > 0 {
			sort.Slice(u.files, func(i, j int) bool { return u.files[i].path < u.files[j].path })
			units = append(units, u)
		}
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i].files[0].path < units[j].files[0].path })
	return units, notes, mod, hasTestMain
}

// isOriginal reports whether name is one of p's own source files (not a file
// that cgo or the go command generated in the build cache).
func isOriginal(p *packages.Package, name string) bool {
	for _, g := range p.GoFiles {
		if g == name {
			return true
		}
	}
	return false
}

func importsC(fset *token.FileSet, name string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
	if err != nil {
		return false
	}
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// rtAPI describes the runtime package the rewritten code calls: which
// functions it exports. The instrumenter rewrites an operation only when
// the runtime has the function for it.
type rtAPI struct {
	funcs  map[string]bool
	fields map[string]bool // "Type.Field" of its exported struct types
	stub   string          // source of a package with the runtime's exported API
}

func (a *rtAPI) has(name string) bool { return a.funcs[name] }

// hasField reports whether the runtime's struct type typ has field name.
func (a *rtAPI) hasField(typ, name string) bool { return a.fields[typ+"."+name] }

func parseRuntimeAPI(files map[string][]byte) (*rtAPI, error) {
	api := &rtAPI{funcs: make(map[string]bool), fields: make(map[string]bool)}
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, k := range sortedKeys(files) {
		if !strings.HasPrefix(k, "rt/") || path.Ext(k) != ".go" {
			continue
		}
		f, err := parser.ParseFile(fset, k, files[k], parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("embedded runtime: %w", err)
		}
		if hasBuildIgnore(f) {
			continue
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				api.funcs[fd.Name.Name] = true
			}
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, sp := range gd.Specs {
					ts := sp.(*ast.TypeSpec)
					st, ok := ts.Type.(*ast.StructType)
					if !ok || !ts.Name.IsExported() {
						continue
					}
					for _, f := range st.Fields.List {
						for _, n := range f.Names {
							api.fields[ts.Name.Name+"."+n.Name] = true
						}
					}
				}
			}
		}
	}
	api.stub = runtimeStubSource(parsed, fset)
	for _, need := range []string{"R", "W", "RegisterNext", "RegisterNextQuiet"} {
		if !api.funcs[need] {
			return nil, errors.New("embedded runtime lacks rt." + need)
		}
	}
	return api, nil
}

func hasBuildIgnore(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

// instrumenter holds what is global to one Instrument call.
type instrumenter struct {
	fset     *token.FileSet
	api      *rtAPI
	modDir   string
	rtImport string
	sites    []Site
	notes    []note.Note
	extra    map[string][]byte  // generated files (Options.Extra)
	langTag  bool               // rewritten files need a go1.21 build tag (modules.go)
	depMods  []*packages.Module // the other modules of units being rewritten (moduleDeps)
	exports  *stdExports        // the fallback importers' standard packages (importLoaded)
}

// depMod returns the module of depMods whose directory holds the file
// name, or nil.
func (ins *instrumenter) depMod(name string) *packages.Module {
	for _, m := range ins.depMods {
		if m.Dir != "" && strings.HasPrefix(name, m.Dir+string(filepath.Separator)) {
			return m
		}
	}
	return nil
}

// relPos renders a position as the site table wants it.
func (ins *instrumenter) relPos(pos token.Pos) string {
	p := ins.fset.Position(pos)
	name := p.Filename
	if rel, err := filepath.Rel(ins.modDir, name); err == nil && !strings.HasPrefix(rel, "..") {
		name = filepath.ToSlash(rel)
	} else if m := ins.depMod(name); m != nil {
		// Another module's file (moduleDeps): named as the go command names
		// it, module@version/path, not by where the module cache is.
		rel, _ := filepath.Rel(m.Dir, name)
		name = m.Path + "/" + filepath.ToSlash(rel)
		if m.Version != "" {
			name = m.Path + "@" + m.Version + "/" + filepath.ToSlash(rel)
		}
	}
	return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Column)
}

// instrumentUnit rewrites the files of one unit and returns their new
// content (nil for a file that needed no change). It also prepares the
// generated TestMain, if the unit is a test variant without one.
func (ins *instrumenter) instrumentUnit(u *unit) ([][]byte, error) {
	heap := heapVars(u.pkg)
	srcs := make([][]byte, len(u.files))
	for i, f := range u.files {
		src, ok := ins.extra[f.path]
		if !ok {
			var err error
			if src, err = os.ReadFile(f.path); err != nil {
				return nil, err
			}
		}
		if tf := ins.fset.File(f.syntax.Pos()); tf == nil || tf.Size() != len(src) {
			return nil, fmt.Errorf("%s changed while it was being instrumented", f.path)
		}
		srcs[i] = src
	}
	return ins.rewriteUnit(u, heap, srcs)
}

// testMainFile returns a generated test file for package pkgName in dir that
// ends the trace cleanly after the tests ran: a TestMain that calls
// rt.Finish between m.Run and os.Exit. It goes in the internal test
// package (also when the package has only external tests: the file
// creates the internal test variant).
func (ins *instrumenter) testMainFile(dir, pkgName string) (path, src string) {
	name := "zz_pecanvet_main_test.go"
	for i := 2; ; i++ {
		if _, err := os.Lstat(filepath.Join(dir, name)); os.IsNotExist(err) {
			break
		}
		name = fmt.Sprintf("zz_pecanvet_main%d_test.go", i)
	}
	return filepath.Join(dir, name), fmt.Sprintf(`// Code generated by pecanvet. DO NOT EDIT.

package %s

import (
	pecanvetos__ "os"
	pecanvettesting__ "testing"

	pecanvetrt__ %q
)

// TestMain ends the trace after the tests ran.
func TestMain(m *pecanvettesting__.M) {
	code := m.Run()
	pecanvetrt__.Finish()
	pecanvetos__.Exit(code)
}
`, pkgName, ins.rtImport)
}
