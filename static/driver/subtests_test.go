package driver

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestIsSubtests: a t.Run, or a loop of them with copies of the loop's
// variables, is the test's own checks; a loop that does anything else,
// or a Run of something else, is not. A subtest that uses the test's
// receiver of the driven type is kept (mentionsType).
func TestIsSubtests(t *testing.T) {
	src := `package p

import "testing"

type Cache struct{ n int }

func (c *Cache) Set() { c.n++ }

type runner struct{}

func (runner) Run(string, func(*testing.T)) {}

func TestX(t *testing.T) {
	cases := []int{1, 2}
	for _, c := range cases {
		c := c
		t.Run("a", func(t *testing.T) { t.Parallel(); own := &Cache{}; own.Set(); _ = c })
	}
	t.Run("b", func(t *testing.T) {})
	for i := 0; i < 2; i++ {
		cases = append(cases, i)
		t.Run("c", func(t *testing.T) {})
	}
	var r runner
	r.Run("d", nil)
	shared := &Cache{}
	t.Run("e", func(t *testing.T) { shared.Set() })
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p_test.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	var body []ast.Stmt
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "TestX" {
			body = fd.Body.List
		}
	}
	// Statement → whether it is left out as subtests.
	want := map[int]bool{1: true, 2: true, 3: false, 5: false, 7: false}
	for i, w := range want {
		got := isSubtests(info, body[i], "t") && !mentionsType(info, body[i], "p", "Cache")
		if got != w {
			t.Errorf("statement %d (line %d): left out %v, want %v", i, fset.Position(body[i].Pos()).Line, got, w)
		}
	}
	if !isSubtests(info, body[7], "t") {
		t.Errorf("t.Run of the shared receiver is no subtest")
	}
}
