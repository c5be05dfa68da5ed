package load

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// describe is what a stage reads of a loaded package's types.
func describe(p *packages.Package) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ill=%v errs=%d types=%d defs=%d uses=%d sel=%d inst=%d impl=%d scopes=%d\n", p.ID, p.IllTyped, len(p.Errors),
		len(p.TypesInfo.Types), len(p.TypesInfo.Defs), len(p.TypesInfo.Uses), len(p.TypesInfo.Selections), len(p.TypesInfo.Instances), len(p.TypesInfo.Implicits), len(p.TypesInfo.Scopes))
	for _, e := range p.Errors {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	scope := p.Types.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		fmt.Fprintf(&b, "  %s %s\n", name, types.TypeString(obj.Type(), nil))
		if tn, ok := obj.(*types.TypeName); ok {
			if n, ok := tn.Type().(*types.Named); ok {
				for i := range n.NumMethods() {
					fmt.Fprintf(&b, "    %s\n", n.Method(i))
				}
			}
		}
	}
	var imps []string
	for path, imp := range p.Imports {
		imps = append(imps, path+"="+imp.ID)
	}
	slices.Sort(imps)
	fmt.Fprintf(&b, "  imports %v\n", imps)
	return b.String()
}

func describeAll(list []*packages.Package) string {
	var ds []string
	for _, p := range list {
		ds = append(ds, describe(p))
	}
	slices.Sort(ds)
	return strings.Join(ds, "")
}

const cache = `package cache

import (
	"sync"

	"example.com/m/store"
)

type Cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
	s  store.Store
}

func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	c.s.Hits++
	return v, ok
}

func New[K comparable, V any]() *Cache[K, V] { return &Cache[K, V]{m: map[K]V{}} }
`

const cacheTest = `package cache

import "testing"

func TestGet(t *testing.T) {
	c := New[string, int]()
	if _, ok := c.Get("a"); ok {
		t.Fatal("hit")
	}
}
`

const cacheXTest = `package cache_test

import (
	"fmt"
	"testing"

	"example.com/m/cache"
)

func TestX(t *testing.T) {
	c := cache.New[int, string]()
	v, _ := c.Get(1)
	fmt.Sprint(v)
}
`

// TestLoadSourceSame: the packages type-checked without compiling them
// have the types and the type information go/packages gives them.
func TestLoadSourceSame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.24\n",
		"store/store.go":      "package store\n\ntype Store struct{ Hits int }\n",
		"cache/cache.go":      cache,
		"cache/cache_test.go": cacheTest,
		"cache/x_test.go":     cacheXTest,
		"bad/bad.go":          "package bad\n\nfunc F() int { return \"s\" }\n",
		// Only an external test (Go's race testdata): the package itself
		// has no files.
		"xonly/x_test.go": "package xonly_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/store\"\n)\n\nfunc TestS(t *testing.T) { _ = store.Store{} }\n",
	})
	for _, pattern := range []string{"./cache", "./bad", "./xonly"} {
		want, err := packages.Load((&Packages{Dir: dir, Fset: token.NewFileSet()}).Config(context.Background()), pattern)
		if err != nil {
			t.Fatal(err)
		}
		got, _, ok, err := loadSource((&Packages{Dir: dir, Fset: token.NewFileSet()}).Config(context.Background()), []string{pattern}, nil)
		if err != nil || !ok {
			t.Fatalf("%s: loadSource: ok %v, %v", pattern, ok, err)
		}
		// The compile's own report of a type error (a ListError) is the
		// compile's: loadSource gives the type checker's alone.
		for _, p := range want {
			p.Errors = slices.DeleteFunc(p.Errors, func(e packages.Error) bool { return e.Kind == packages.ListError })
		}
		if g, w := describeAll(got), describeAll(want); g != w {
			t.Errorf("%s: loadSource gave\n%s\ngo/packages gave\n%s", pattern, g, w)
		}
	}
}

// TestLoadSourceNoCompile: loadSource does not compile the package. A
// //go:linkname without importing unsafe is a compile error that go/types
// does not see: go/packages's load, which compiles for export data,
// reports it; loadSource's does not.
func TestLoadSourceNoCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":    "module example.com/lnk\n\ngo 1.24\n",
		"a.go":      "package lnk\n\n//go:linkname nanotime runtime.nanotime\nfunc nanotime() int64\n\nfunc Now() int64 { return 1 }\n",
		"a_test.go": "package lnk\n\nimport \"testing\"\n\nfunc TestNow(t *testing.T) { _ = Now() }\n",
	})
	p := &Packages{Dir: dir, Fset: token.NewFileSet()}
	compiled, err := packages.Load(p.Config(context.Background()), ".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	packages.Visit(compiled, nil, func(p *packages.Package) { n += len(p.Errors) })
	if n == 0 {
		t.Fatal("go/packages's load reported no compile error: the test no longer tells a compile")
	}
	got, _, ok, err := loadSource(p.Config(context.Background()), []string{"."}, nil)
	if err != nil || !ok {
		t.Fatalf("loadSource: ok %v, %v", ok, err)
	}
	for _, q := range got {
		if len(q.Errors) > 0 || q.Types == nil || !q.Types.Complete() {
			t.Errorf("%s: errors %v, types %v", q.ID, q.Errors, q.Types)
		}
	}
}

// TestLoadSourceRecompiled: a package of the module imported by the
// package's external test and importing the package itself is compiled
// again for the tests ("q [p.test]"); loadSource leaves that shape to
// go/packages, and Load still loads it.
func TestLoadSourceRecompiled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":      "module example.com/r\n\ngo 1.24\n",
		"p/p.go":      "package p\n\nfunc F() int { return 1 }\n",
		"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { _ = F() }\n",
		"p/x_test.go": "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/r/q\"\n)\n\nfunc TestG(t *testing.T) { _ = q.G() }\n",
		"q/q.go":      "package q\n\nimport \"example.com/r/p\"\n\nfunc G() int { return p.F() }\n",
	})
	p := &Packages{Dir: dir, Fset: token.NewFileSet()}
	if _, _, ok, err := loadSource(p.Config(context.Background()), []string{"./p"}, nil); ok || err != nil {
		t.Errorf("loadSource took a recompiled dependency: ok %v, %v", ok, err)
	}
	loaded, err := Load(context.Background(), dir, []string{"./p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range loaded.List {
		if q.Types == nil || len(q.Errors) > 0 {
			t.Errorf("%s: types %v, errors %v", q.ID, q.Types, q.Errors)
		}
	}
}

// TestLoadSourceImportsRoot: a package of the module imported by the
// package's external test and importing the package itself, when the
// package has no internal tests, is not recompiled ("q", not "q [p.test]"),
// and its export data names a p of its own; loadSource leaves that shape
// to go/packages too (cloudevents/sdk-go's binding_test imports
// binding/test, which imports binding: "binding.Message does not
// implement binding.Message"), and Load loads it without type errors.
func TestLoadSourceImportsRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":      "module example.com/r\n\ngo 1.24\n",
		"p/p.go":      "package p\n\ntype W struct{}\n\ntype M interface{ Read(W) error }\n\nfunc Use(m M) error { return m.Read(W{}) }\n",
		"p/x_test.go": "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/r/p\"\n\t\"example.com/r/q\"\n)\n\nfunc TestUse(t *testing.T) { var m p.M = q.New(); _ = p.Use(m) }\n",
		"q/q.go":      "package q\n\nimport \"example.com/r/p\"\n\ntype mock struct{}\n\nfunc (mock) Read(p.W) error { return nil }\n\nfunc New() p.M { return mock{} }\n",
	})
	p := &Packages{Dir: dir, Fset: token.NewFileSet()}
	if _, _, ok, err := loadSource(p.Config(context.Background()), []string{"./p"}, nil); ok || err != nil {
		t.Errorf("loadSource took a dependency importing the package under check: ok %v, %v", ok, err)
	}
	loaded, err := Load(context.Background(), dir, []string{"./p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range loaded.List {
		if q.Types == nil || len(q.Errors) > 0 {
			t.Errorf("%s: types %v, errors %v", q.ID, q.Types, q.Errors)
		}
	}
}
