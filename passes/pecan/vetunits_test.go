package pecan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestExternalTestsFollow: under go vet, package p's unit leaves the tests
// to its external test package's unit only when go vet runs one (a
// _test.go file in package p_test that the build does not ignore) and it
// imports p, whose compiled package is then part of its cache key.
func TestExternalTestsFollow(t *testing.T) {
	const pkgSrc = "package counter\n\nfunc Inc() {}\n"
	for _, tc := range []struct {
		name    string
		files   map[string]string
		ignored []string
		want    bool
	}{
		{"imports p", map[string]string{"x_test.go": "package counter_test\n\nimport \"example.com/m/counter\"\n\nvar _ = counter.Inc\n"}, nil, true},
		{"internal tests only", map[string]string{"in_test.go": "package counter\n"}, nil, false},
		{"does not import p", map[string]string{"x_test.go": "package counter_test\n\nimport \"os/exec\"\n\nvar _ = exec.Command\n"}, nil, false},
		{"ignored by the build", map[string]string{"x_test.go": "//go:build never\n\npackage counter_test\n\nimport \"example.com/m/counter\"\n\nvar _ = counter.Inc\n"}, []string{"x_test.go"}, false},
		{"one of two imports p", map[string]string{
			"a_test.go": "package counter_test\n\nimport \"testing\"\n\nvar _ testing.T\n",
			"b_test.go": "package counter_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/counter\"\n)\n\nvar _ = counter.Inc\n",
		}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "counter.go")
			os.WriteFile(name, []byte(pkgSrc), 0o644)
			for n, src := range tc.files {
				os.WriteFile(filepath.Join(dir, n), []byte(src), 0o644)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, pkgSrc, 0)
			if err != nil {
				t.Fatal(err)
			}
			pass := &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Pkg: types.NewPackage("example.com/m/counter", "counter")}
			for _, n := range tc.ignored {
				pass.IgnoredFiles = append(pass.IgnoredFiles, filepath.Join(dir, n))
			}
			if got := externalTestsFollow(pass, dir); got != tc.want {
				t.Errorf("externalTestsFollow = %v, want %v", got, tc.want)
			}
		})
	}
	// The external test package's side of the decision: its imports.
	p := types.NewPackage("example.com/m/counter", "counter")
	x := types.NewPackage("example.com/m/counter_test", "counter_test")
	if importsBase(x) {
		t.Error("importsBase without imports")
	}
	x.SetImports([]*types.Package{types.NewPackage("testing", "testing"), p})
	if !importsBase(x) {
		t.Error("importsBase: the import of p not seen")
	}
}
