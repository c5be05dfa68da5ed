package instrument

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/static/load"
	"golang.org/x/tools/go/packages"
)

// TestModuleDepsFromListing: moduleDeps finds the module's packages that
// the checked packages import, directly (q, from the external test) or
// through each other (r, through q), in the import graph the packages'
// own load listed, without listing them again; the external test package
// the test main imports is no dependency; and the answer is the one a
// listing of its own gives (the path taken when an import is a stub).
func TestModuleDepsFromListing(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":         "module example.com/m\n\ngo 1.22\n",
		"p/p.go":         "package p\n\n// P is one.\nfunc P() int { return 1 }\n",
		"p/p_x_test.go":  "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/p\"\n\t\"example.com/m/q\"\n)\n\nfunc TestP(t *testing.T) { _ = p.P() + q.Q() }\n",
		"q/q.go":         "package q\n\nimport \"example.com/m/r\"\n\n// Q is r's.\nfunc Q() int { return r.R() }\n",
		"r/r.go":         "package r\n\n// R is two.\nfunc R() int { return 2 }\n",
		"unused/used.go": "package unused\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	loaded, err := load.Load(ctx, dir, []string{"./p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mod *packages.Module
	for _, p := range loaded.List {
		if p.Module != nil {
			mod = p.Module
		}
		for _, imp := range p.Imports {
			id, _, _ := strings.Cut(imp.ID, " ")
			if strings.HasPrefix(id, "example.com/m/") && !strings.HasPrefix(id, "example.com/m/p") && !hasListing(imp) {
				t.Errorf("the load's import %s has no listing: moduleDeps would list it again", imp.ID)
			}
		}
	}
	if mod == nil {
		t.Fatal("no module")
	}
	cfg := loaded.Config(ctx)
	mine, others := moduleDeps(cfg, loaded.List, mod, true)
	if got, want := strings.Join(mine, " "), "example.com/m/q example.com/m/r"; got != want || len(others) > 0 {
		t.Errorf("moduleDeps = %q, %q; want %q and none", got, others, want)
	}
	// Stubs in place of the listed imports: moduleDeps lists them itself,
	// with the same answer.
	stubbed := make([]*packages.Package, len(loaded.List))
	for i, p := range loaded.List {
		c := *p
		c.Imports = map[string]*packages.Package{}
		for k, imp := range p.Imports {
			c.Imports[k] = &packages.Package{ID: imp.ID}
		}
		stubbed[i] = &c
	}
	mine2, others2 := moduleDeps(cfg, stubbed, mod, true)
	if !slices.Equal(mine, mine2) || !slices.Equal(others, others2) {
		t.Errorf("from the listing %q %q, listed again %q %q", mine, others, mine2, others2)
	}
}

// TestLoadDepsFromSource: with the plan (SourceDeps) the load reads the
// types of the module deps' imports, and loadDeps loads the deps without a
// go command (load.Packages.LoadFromSource): the same packages, in the
// same order, with the same types, as packages.Load gives; and the
// instrumented result (every overlaid file's content, the deps, the
// sites) is the one loading them with packages.Load gives. The module's
// deps: q (imported by p) and r (through q, and by an external test),
// and a package of another module whose go statement runs its caller's
// function (moduleDeps' others).
func TestLoadDepsFromSource(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Setenv("PECANVET_CACHE", t.TempDir())
	proxyModule(t, "example.com/dep", "v1.0.0", map[string]string{
		"go.mod":     "module example.com/dep\n\ngo 1.16\n",
		"grp/grp.go": "package grp\n\nimport \"sync\"\n\n// Group runs functions in goroutines.\ntype Group struct{ wg sync.WaitGroup }\n\n// Go runs f in a goroutine.\nfunc (g *Group) Go(f func()) { g.wg.Add(1); go func() { defer g.wg.Done(); f() }() }\n\n// Wait waits for them.\nfunc (g *Group) Wait() { g.wg.Wait() }\n",
	})
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
		"p/p.go":        "package p\n\nimport (\n\t\"example.com/dep/grp\"\n\t\"example.com/m/q\"\n)\n\n// Run runs f twice in goroutines.\nfunc Run(f func()) { var g grp.Group; g.Go(f); g.Go(f); g.Wait(); q.Do(func() {}) }\n",
		"p/p_test.go":   "package p\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { n := 0; Run(func() { n++ }); _ = n }\n",
		"p/p_x_test.go": "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/r\"\n)\n\nfunc TestR(t *testing.T) { r.Add(1) }\n",
		"q/q.go":        "package q\n\nimport (\n\t\"sync\"\n\n\t\"example.com/m/r\"\n)\n\nvar mu sync.Mutex\n\n// Do runs f holding mu.\nfunc Do(f func()) { mu.Lock(); defer mu.Unlock(); r.Add(1); f() }\n",
		"r/r.go":        "package r\n\nimport (\n\t\"strings\"\n\t\"sync/atomic\"\n)\n\nvar n atomic.Int64\n\n// Add adds k.\nfunc Add(k int) { n.Add(int64(k + strings.Count(\"\", \"\") - 1)) }\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	dl := exec.Command("go", "mod", "download", "example.com/dep")
	dl.Dir = dir
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	ctx := context.Background()
	loaded, err := load.LoadFor(ctx, dir, []string{"./p"}, nil, SourceDeps(nil))
	if err != nil {
		t.Fatal(err)
	}
	paths := SourceDeps(nil)(loaded.List)
	if got, want := strings.Join(paths, " "), "example.com/m/q example.com/m/r example.com/dep/grp"; got != want {
		t.Fatalf("plan %q, want %q", got, want)
	}
	fast, ok := loaded.LoadFromSource(paths)
	if !ok {
		t.Fatal("LoadFromSource could not load the planned packages")
	}
	c := *loaded.Config(ctx)
	c.Tests = false
	slow, err := packages.Load(&c, paths...)
	if err != nil {
		t.Fatal(err)
	}
	describe := func(list []*packages.Package) string {
		var b strings.Builder
		for _, p := range list {
			fmt.Fprintf(&b, "%s %s errors=%d files=%d imports=%d:", p.ID, p.Name, len(p.Errors), len(p.Syntax), len(p.Imports))
			for _, name := range p.Types.Scope().Names() {
				fmt.Fprintf(&b, " %s", p.Types.Scope().Lookup(name))
			}
			for _, k := range slices.Sorted(maps.Keys(p.Imports)) {
				fmt.Fprintf(&b, " [%s complete=%t]", k, p.Imports[k].Types != nil && p.Imports[k].Types.Complete())
			}
			fmt.Fprintf(&b, " uses=%d defs=%d types=%d\n", len(p.TypesInfo.Uses), len(p.TypesInfo.Defs), len(p.TypesInfo.Types))
		}
		return b.String()
	}
	if got, want := describe(fast), describe(slow); got != want {
		t.Errorf("LoadFromSource:\n%s\npackages.Load:\n%s", got, want)
	}
	// No plan: the deps' imports were not read; LoadFromSource says so.
	unplanned, err := load.Load(ctx, dir, []string{"./p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := unplanned.LoadFromSource(paths); ok {
		t.Errorf("LoadFromSource loaded packages whose imports' types were not read")
	}

	instrumented := func() (map[string]string, *Result) {
		res, err := Instrument(ctx, Options{Dir: dir, Patterns: []string{"./p"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Cleanup() })
		files := map[string]string{}
		for orig, repl := range overlayOf(t, res).Replace {
			b, err := os.ReadFile(repl)
			if err != nil {
				t.Fatal(err)
			}
			files[orig] = string(b)
		}
		return files, res
	}
	files, res := instrumented()
	fromSource = false
	defer func() { fromSource = true }()
	files2, res2 := instrumented()
	if !maps.Equal(files, files2) {
		t.Errorf("the overlays differ:\n%v\nwith packages.Load:\n%v", files, files2)
	}
	if !slices.Equal(res.Deps, res2.Deps) || !reflect.DeepEqual(res.Sites, res2.Sites) || !reflect.DeepEqual(res.Notes, res2.Notes) {
		t.Errorf("deps %q, sites %d, notes %v; with packages.Load %q, %d, %v", res.Deps, len(res.Sites), res.Notes, res2.Deps, len(res2.Sites), res2.Notes)
	}
	if len(res.Deps) != 3 {
		t.Errorf("deps %q, want q, r and grp", res.Deps)
	}
}
