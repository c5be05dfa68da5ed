package load

import (
	"context"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestGuessImports: the guess is the package's imports, its tests' and the
// test main's, build constraints applied, and the imports of the packages
// outside the standard library they reach (the module's own, and a
// required module's from the module cache); no guess where such a
// package's directory is unknown (a module not required, or replaced) or
// the patterns name more than one directory.
func TestGuessImports(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.24\n",
		"p/p.go":           "package p\n\nimport \"sync\"\n\nvar Mu sync.Mutex\n",
		"p/p_test.go":      "package p\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestA(t *testing.T) { time.Sleep(0) }\n",
		"p/x_test.go":      "package p_test\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n\n\t\"example.com/m/p\"\n)\n\nfunc TestB(t *testing.T) { fmt.Sprint(&p.Mu) }\n",
		"p/tagged.go":      "//go:build special\n\npackage p\n\nimport \"net/http\"\n\nvar _ = http.MethodGet\n",
		"p/unsafe.go":      "package p\n\nimport \"unsafe\"\n\nvar _ = unsafe.Sizeof(0)\n",
		"q/q.go":           "package q\n\nimport \"example.com/m/store\"\n\nvar _ store.S\n",
		"store/store.go":   "package store\n\nimport \"strings\"\n\ntype S struct{ b strings.Builder }\n",
		"ext/ext.go":       "package ext\n\nimport \"golang.org/x/sync/errgroup\"\n\nvar _ errgroup.Group\n",
		"self/self.go":     "package self\n",
		"self/x_test.go":   "package self_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/self\"\n\t\"example.com/m/store\"\n)\n\nfunc TestS(t *testing.T) { _, _ = self.X, store.S{} }\n",
		"cgo/cgo.go":       "package cgo\n\n// int one() { return 1; }\nimport \"C\"\n\nfunc One() int { return int(C.one()) }\n",
		"noimp/noimp.go":   "package noimp\n\nfunc F() {}\n",
		"noimp/a_test.go":  "package noimp\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
		"noimp/zz_test.go": "package noimp\n",
	})
	base := []string{"os", "reflect", "testing", "testing/internal/testdeps"}
	with := func(extra ...string) []string {
		out := slices.Concat(base, extra)
		slices.Sort(out)
		return slices.Compact(out)
	}
	for _, c := range []struct {
		pattern string
		flags   []string
		env     []string
		want    []string
	}{
		{"./p", nil, nil, with("sync", "time", "fmt")},
		{dir + "/p", nil, nil, with("sync", "time", "fmt")},
		{"./p", []string{"-tags=special"}, nil, with("sync", "time", "fmt", "net/http")},
		{"./p", []string{"-tags", "special"}, nil, with("sync", "time", "fmt", "net/http")},
		{"./p", nil, []string{"GOFLAGS=-tags=special"}, with("sync", "time", "fmt", "net/http")},
		{"./p", []string{"-overlay=/x.json"}, nil, nil},
		{"./noimp", nil, nil, with()},
		{"./q", nil, nil, with("example.com/m/store", "strings")},
		{"./ext", nil, nil, nil}, // x/sync is not required
		{"./self", nil, nil, with("example.com/m/store", "strings")},
		{"./...", nil, nil, nil},
		{"example.com/m/p", nil, nil, nil},
		{"./missing", nil, nil, nil},
	} {
		got := guessImports(dir, []string{c.pattern}, c.flags, c.env)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v %v: guessed %v, want %v", c.pattern, c.flags, c.env, got, c.want)
		}
	}
	// A required module's packages are read from the module cache, at the
	// version go.mod requires, their own imports of that module's other
	// packages too; not with a replace directive, nor with -mod.
	cache := t.TempDir()
	for name, src := range map[string]string{
		"example.org/!dep@v1.2.0/a/a.go": "package a\n\nimport (\n\t\"example.org/Dep/b\"\n\t\"sort\"\n)\n\nvar _ = sort.Ints\nvar _ = b.B\n",
		"example.org/!dep@v1.2.0/b/b.go": "package b\n\nimport \"bytes\"\n\nvar B bytes.Buffer\n",
		"example.org/!dep@v1.1.0/a/a.go": "package a\n\nimport \"os/exec\"\n\nvar _ = exec.Command\n",
	} {
		p := filepath.Join(cache, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	req := writeModule(t, map[string]string{
		"go.mod":      "module example.com/r\n\ngo 1.24\n\nrequire example.org/Dep v1.2.0\n",
		"u/u.go":      "package u\n\nimport \"example.org/Dep/a\"\n\nvar _ = a.X\n",
		"u/u_test.go": "package u\n\nimport \"testing\"\n\nfunc TestU(t *testing.T) {}\n",
	})
	env := []string{"GOMODCACHE=" + cache, "GOWORK=off"}
	if got, want := guessImports(req, []string{"./u"}, nil, env), with("example.org/Dep/a", "example.org/Dep/b", "sort", "bytes"); !reflect.DeepEqual(got, want) {
		t.Errorf("required module: guessed %v, want %v", got, want)
	}
	if got := guessImports(req, []string{"./u"}, []string{"-mod=vendor"}, env); got != nil {
		t.Errorf("-mod=vendor: guessed %v", got)
	}
	if err := os.WriteFile(filepath.Join(req, "go.mod"), []byte("module example.com/r\n\ngo 1.24\n\nrequire example.org/Dep v1.2.0\n\nreplace example.org/Dep => example.org/Dep v1.1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := guessImports(req, []string{"./u"}, nil, env); got != nil {
		t.Errorf("replaced: guessed %v", got)
	}
	if got := guessImports(dir, []string{"./p", "./noimp"}, nil, nil); got != nil {
		t.Errorf("two patterns: guessed %v", got)
	}
	// With cgo the package has cgo files; without, none that builds.
	if got := guessImports(dir, []string{"./cgo"}, nil, nil); got != nil {
		t.Errorf("cgo: guessed %v", got)
	}
}

// TestLoadSourceAhead: a package gets its imports' export data from the
// list started beside the listing (no list after it), with the types
// go/packages gives: one importing only the standard library, and one
// importing its module's packages, whose imports the plan asks for too;
// a package whose guess misses (an import behind a build constraint the
// go command and go/build see alike, here none: a module not required)
// lists after the listing, as before.
func TestLoadSourceAhead(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.24\n",
		"store/store.go":      "package store\n\ntype Store struct{ Hits int }\n",
		"store/util.go":       "package store\n\nimport \"strings\"\n\nvar _ = strings.ToUpper\n",
		"cache/cache.go":      cache,
		"cache/cache_test.go": cacheTest,
		"cache/x_test.go":     cacheXTest,
		"std/std.go":          "package std\n\nimport (\n\t\"strings\"\n\t\"sync\"\n)\n\ntype C struct {\n\tmu sync.Mutex\n\tb  strings.Builder\n}\n\nfunc (c *C) Add(s string) { c.mu.Lock(); c.b.WriteString(s); c.mu.Unlock() }\n",
		"std/std_test.go":     "package std\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestAdd(t *testing.T) { var c C; go c.Add(\"a\"); c.Add(time.Now().String()) }\n",
		"std/x_test.go":       "package std_test\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n\n\t\"example.com/m/std\"\n)\n\nfunc TestX(t *testing.T) { fmt.Sprint(new(std.C)) }\n",
	})
	for _, c := range []struct {
		pattern string
		after   int64
		plan    SourceDeps
	}{{"./std", 0, nil}, {"./cache", 0, nil}, {"./cache", 0, func([]*packages.Package) []string { return []string{"example.com/m/store"} }}} {
		want, err := packages.Load((&Packages{Dir: dir, Fset: token.NewFileSet()}).Config(context.Background()), c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		before := exportListsAfter.Load()
		got, src, ok, err := loadSource((&Packages{Dir: dir, Fset: token.NewFileSet()}).Config(context.Background()), []string{c.pattern}, c.plan)
		if err != nil || !ok {
			t.Fatalf("%s: loadSource: ok %v, %v", c.pattern, ok, err)
		}
		if n := exportListsAfter.Load() - before; n != c.after {
			t.Errorf("%s: %d export-data lists after the listing, want %d", c.pattern, n, c.after)
		}
		if c.plan != nil && src.export["strings"] == nil {
			t.Errorf("%s: the plan's store imports strings, not read from export data", c.pattern)
		}
		for _, p := range want {
			p.Errors = slices.DeleteFunc(p.Errors, func(e packages.Error) bool { return e.Kind == packages.ListError })
		}
		if g, w := describeAll(got), describeAll(want); g != w {
			t.Errorf("%s: loadSource gave\n%s\ngo/packages gave\n%s", c.pattern, g, w)
		}
	}
}
