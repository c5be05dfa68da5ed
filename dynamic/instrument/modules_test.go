package instrument

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestWithLangTag(t *testing.T) {
	for _, c := range []struct {
		name, src, want string // want: the constraint of the result
	}{
		{"none", "package p\n\nvar x int\n", "go1.21"},
		{"gobuild", "// Copyright x\n\n//go:build linux || darwin\n\npackage p\n\nvar x int\n", "(linux || darwin) && go1.21"},
		{"plusbuild", "// +build linux\n// +build amd64\n\npackage p\n\nvar x int\n", "linux && amd64 && go1.21"},
		{"both", "//go:build linux\n// +build linux\n\npackage p\n\nvar x int\n", "linux && go1.21"},
		// A //go:build line inside a block comment is no constraint; it stays.
		{"slashstar", "/* doc\n//go:build ignore\n*/\n\npackage p\n\nvar x int\n", "go1.21"},
		{"versioned", "//go:build go1.18\n\npackage p\n\nvar x int\n", ""},
		// A directive on the first line must still start a line.
		{"generate", "//go:generate go run gen.go\n\npackage p\n\nvar x int\n", "go1.21"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := string(withLangTag("/m/p.go", []byte(c.src)))
			if c.want == "" {
				if out != c.src {
					t.Fatalf("a file that sets its version was changed:\n%s", out)
				}
				return
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "/m/p.go", out, parser.ParseComments)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if f.GoVersion != "go1.21" {
				t.Errorf("file version %q, want go1.21\n%s", f.GoVersion, out)
			}
			n := 0
			for _, l := range strings.Split(out, "\n") {
				if constraint.IsGoBuild(l) && !strings.Contains(c.src, "/*") {
					n++
					if x, _ := constraint.Parse(l); x.String() != c.want {
						t.Errorf("constraint %q, want %q", x, c.want)
					}
				}
			}
			if n != 1 && !strings.Contains(c.src, "/*") {
				t.Errorf("%d //go:build lines, want 1:\n%s", n, out)
			}
			// cmd/compile accepts a //go: directive only at the start of a
			// line ("misplaced compiler directive").
			for _, l := range strings.Split(c.src, "\n") {
				if strings.HasPrefix(l, "//go:") && !strings.HasPrefix(l, "//go:build") && !strings.Contains(out, "\n"+l+"\n") {
					t.Errorf("directive %q does not start a line:\n%s", l, out)
				}
			}
			// The original text keeps its lines: var x is where it was.
			for _, d := range f.Decls {
				got := fset.Position(d.Pos()).Line
				want := strings.Count(c.src[:strings.Index(c.src, "var x")], "\n") + 1
				if got != want {
					t.Errorf("declaration at line %d, want %d", got, want)
				}
			}
		})
	}
}

func TestRuntimeGoLine(t *testing.T) {
	for _, c := range []struct{ main, want string }{
		{"", ""}, {"1.13", "1.13"}, {"1.16", "1.16"}, {"1.20", "1.20"}, {"1.21", "1.21"}, {"1.21.0", "1.21"}, {"1.26", "1.21"},
	} {
		if got := runtimeGoLine(c.main); got != c.want {
			t.Errorf("runtimeGoLine(%q) = %q, want %q", c.main, got, c.want)
		}
	}
	if needsLangTag("1.22") || !needsLangTag("1.16") || !needsLangTag("") {
		t.Errorf("needsLangTag")
	}
}
