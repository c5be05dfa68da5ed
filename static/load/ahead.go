package load

import (
	"bufio"
	"context"
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/tools/go/packages"
)

// Listing the imports' export data beside the packages' listing.
//
// loadSource runs two go lists one after the other: the packages'
// listing, then the export data of what they import, named from the
// listing. On a package that imports only the standard library (pubsub,
// pond) the second list is about 0.3 s of CPU, and of wall on the check's
// path, before the instrumented build can start. Its patterns can be
// known before the listing: go/build reads the files' imports (build
// constraints applied) and the test main's are fixed. listAhead starts
// that list beside the listing; loadSource takes its answer only when it
// holds every import the listing names, and lists them as before
// otherwise, so a wrong guess costs CPU, never a wrong type: the export
// data of a package is the same whichever list the go command answered.
// It guesses only where a miss is unlikely: one directory, no cgo, and
// every import a package whose directory the guess can read. A package
// importing its module's other packages (conc, ttlcache's bench) or
// packages of other modules (ttlcache's x/sync, conc's testify,
// workerpool's deque) needs their imports too when the instrumenter loads
// them from source (the plan: the module's packages, and another
// module's that run a caller's func on a goroutine), which only the
// listing names: the guess takes, beyond the package's own imports, the
// imports of every package outside the standard library it reaches,
// read from the main module's directory or, for a required module, from
// the module cache (go.mod's require lines, as a tidy go.mod has them:
// the versions the build selects). That is a superset of what the plan
// asks for; a package listed and not needed costs the list a lookup of
// export data that go vet compiled already. With a replace directive, a
// vendor directory or a go.work file the guess stops at the main module.

// testMainImports are the imports of the test main the go command
// generates (cmd/go/internal/load's testmainTmpl, without coverage).
var testMainImports = []string{"os", "reflect", "testing", "testing/internal/testdeps"}

// exportListsAfter counts the export-data lists run after the listing,
// for tests.
var exportListsAfter atomic.Int64

// ahead is an export-data list started before the listing.
type ahead struct {
	cancel context.CancelFunc
	done   chan struct{}
	list   []*packages.Package
	err    error
}

// listAhead starts the export-data list of the imports guessImports
// guesses for patterns, with the configuration loadSource's own list would
// have; nil when there is no guess.
func listAhead(cfg *packages.Config, patterns []string) *ahead {
	guess := guessImports(cfg.Dir, patterns, cfg.BuildFlags, cfg.Env)
	if len(guess) == 0 {
		return nil
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	a := &ahead{cancel: cancel, done: make(chan struct{})}
	d := exportConfig(cfg)
	d.Context = ctx
	go func() {
		defer close(a.done)
		a.list, a.err = packages.Load(d, guess...)
	}()
	return a
}

// exportConfig is the configuration of the imports' export-data list.
func exportConfig(cfg *packages.Config) *packages.Config {
	d := *cfg
	d.Mode = packages.NeedName | packages.NeedTypes
	d.Tests = false
	return &d
}

// stop ends the list if it still runs, and waits for it.
func (a *ahead) stop() {
	if a == nil {
		return
	}
	a.cancel()
	<-a.done
}

// covering waits for the list and returns its packages if they include
// every one of ids, each listed without error.
func (a *ahead) covering(ids []string) ([]*packages.Package, bool) {
	if a == nil {
		return nil, false
	}
	<-a.done
	if a.err != nil {
		return nil, false
	}
	byID := map[string]*packages.Package{}
	for _, p := range a.list {
		byID[p.ID] = p
	}
	for _, id := range ids {
		p := byID[id]
		if p == nil || len(p.Errors) > 0 || p.Types == nil || !p.Types.Complete() {
			return nil, false
		}
	}
	return a.list, true
}

// guessImports returns, sorted, what the package in the one directory
// patterns names imports, its tests included, what its test main imports,
// and the imports of every package outside the standard library these
// reach (through such packages): the patterns of loadSource's export-data
// list. It returns nil (no guess) for other patterns, a package go/build
// cannot read, cgo, or a package outside the standard library whose
// directory it cannot tell (modDirs).
func guessImports(dir string, patterns, buildFlags, env []string) []string {
	if len(patterns) != 1 || !build.IsLocalImport(patterns[0]) && !filepath.IsAbs(patterns[0]) || strings.Contains(patterns[0], "...") {
		return nil
	}
	pdir := patterns[0]
	if !filepath.IsAbs(pdir) {
		pdir = filepath.Join(dir, pdir)
	}
	ctxt := build.Default
	flags := append(strings.Fields(envVar(env, "GOFLAGS")), buildFlags...)
	tags, ok := buildTags(flags)
	if !ok {
		return nil
	}
	ctxt.BuildTags = tags
	bp, err := ctxt.ImportDir(pdir, 0)
	if err != nil || len(bp.CgoFiles) > 0 {
		return nil
	}
	self := ownPath(pdir)
	var dirs *modDirs // made at the first import outside the standard library
	seen := map[string]bool{}
	var out, walk []string
	add := func(imp string) bool {
		switch {
		case seen[imp] || imp == "unsafe" || imp == self && self != "":
			return true
		case imp == "C":
			return false
		}
		seen[imp] = true
		out = append(out, imp)
		if !isStdPath(ctxt.GOROOT, imp) {
			walk = append(walk, imp)
		}
		return true
	}
	for _, imps := range [][]string{bp.Imports, bp.TestImports, bp.XTestImports, testMainImports} {
		for _, imp := range imps {
			if !add(imp) {
				return nil
			}
		}
	}
	for len(walk) > 0 {
		imp := walk[0]
		walk = walk[1:]
		if dirs == nil {
			if dirs = newModDirs(pdir, env, flags); dirs == nil {
				return nil
			}
		}
		d := dirs.dir(imp)
		if d == "" {
			return nil
		}
		ip, err := ctxt.ImportDir(d, 0)
		if err != nil || len(ip.CgoFiles) > 0 {
			return nil
		}
		for _, i := range ip.Imports {
			if !add(i) {
				return nil
			}
		}
	}
	slices.Sort(out)
	return out
}

// envVar is the variable name of env (a go/packages configuration's
// environment, which overrides the process's), else of the process.
func envVar(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return os.Getenv(name)
}

// modDirs tells the directory of a package outside the standard library:
// in the main module, from its root; in a module the main module's go.mod
// requires, in the module cache at the version it names.
type modDirs struct {
	root, path string
	requires   []module.Version // none without a plain go.mod (see newModDirs)
	cache      string
}

// newModDirs reads the go.mod above dir; nil when there is none or it
// does not parse. Another module's packages are left unknown (only the
// main module's are told) with a replace directive, a vendor directory,
// a go.work file in effect, or a -mod flag (flags: GOFLAGS' and the
// build flags; -modfile gives no guess at all, buildTags): then the go
// command may take them from elsewhere than the module cache.
func newModDirs(dir string, env, flags []string) *modDirs {
	root := dir
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return nil
		}
		root = parent
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil
	}
	f, err := modfile.Parse(filepath.Join(root, "go.mod"), data, nil)
	if err != nil || f.Module == nil {
		return nil
	}
	m := &modDirs{root: root, path: f.Module.Mod.Path}
	if len(f.Replace) > 0 || hasGoWork(root, env) || slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(strings.TrimLeft(f, "-"), "mod") }) {
		return m
	}
	if _, err := os.Stat(filepath.Join(root, "vendor")); err == nil {
		return m
	}
	m.cache = envVar(env, "GOMODCACHE")
	if m.cache == "" {
		gopath := envVar(env, "GOPATH")
		if gopath == "" {
			gopath = build.Default.GOPATH
		}
		if first := filepath.SplitList(gopath); len(first) > 0 && first[0] != "" {
			m.cache = filepath.Join(first[0], "pkg", "mod")
		}
	}
	if m.cache == "" {
		return m
	}
	for _, r := range f.Require {
		m.requires = append(m.requires, r.Mod)
	}
	return m
}

// hasGoWork reports whether a go.work file may be in effect for the
// module in root: GOWORK names one, or one is in root or above it.
func hasGoWork(root string, env []string) bool {
	switch w := envVar(env, "GOWORK"); w {
	case "off":
		return false
	case "":
	default:
		return true
	}
	for d := root; ; {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// dir returns the directory of the package path, or "": in the main
// module, or in the required module with the longest path prefix (the
// one the go command resolves it to, when the go.mod is tidy).
func (m *modDirs) dir(path string) string {
	under := func(mod string) bool {
		rest, ok := strings.CutPrefix(path, mod)
		return ok && (rest == "" || rest[0] == '/')
	}
	best := -1
	for i, r := range m.requires {
		if under(r.Path) && (best < 0 || len(r.Path) > len(m.requires[best].Path)) {
			best = i
		}
	}
	if under(m.path) && (best < 0 || len(m.path) >= len(m.requires[best].Path)) {
		d := filepath.Join(m.root, filepath.FromSlash(strings.TrimPrefix(path, m.path)))
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && d != m.root {
			return "" // a module of its own, nested in the main one's directory
		}
		return d
	}
	if best < 0 {
		return ""
	}
	r := m.requires[best]
	ep, err1 := module.EscapePath(r.Path)
	ev, err2 := module.EscapeVersion(r.Version)
	if err1 != nil || err2 != nil {
		return ""
	}
	d := filepath.Join(m.cache, filepath.FromSlash(ep)+"@"+ev, filepath.FromSlash(strings.TrimPrefix(path, r.Path)))
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return ""
	}
	return d
}

// buildTags returns the tags that -tags among the go command's flags sets
// (the last one wins, as the flag package has it); ok is false for a
// flag that changes which files a package has in a way go/build does not
// follow here.
func buildTags(flags []string) (tags []string, ok bool) {
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		if !strings.HasPrefix(f, "-") {
			continue
		}
		name, value, has := strings.Cut(strings.TrimLeft(f, "-"), "=")
		switch name {
		case "tags":
			if !has {
				if i+1 >= len(flags) {
					return nil, false
				}
				i++
				value = flags[i]
			}
			tags = strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })
		case "overlay", "modfile":
			// It may change the package's files, or its imports' modules.
			return nil, false
		}
	}
	return tags, true
}

// isStdPath reports whether path names a standard-library package: a
// first element without a dot, and a directory under GOROOT/src.
func isStdPath(goroot, path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") || goroot == "" {
		return false
	}
	fi, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(path)))
	return err == nil && fi.IsDir()
}

// ownPath returns the import path of the package in dir, from the module
// path of the nearest go.mod above it; "" if there is none.
func ownPath(dir string) string {
	for d := dir; ; {
		if mod := modulePath(filepath.Join(d, "go.mod")); mod != "" {
			rel, err := filepath.Rel(d, dir)
			if err != nil {
				return ""
			}
			if rel == "." {
				return mod
			}
			return mod + "/" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// modulePath returns the module path a go.mod file declares, or "".
func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || rest == "" || rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"' {
			continue
		}
		rest, _, _ = strings.Cut(rest, "//")
		rest = strings.TrimSpace(rest)
		if s, err := strconv.Unquote(rest); err == nil {
			return s
		}
		return rest
	}
	return ""
}
