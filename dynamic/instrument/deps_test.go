package instrument

import (
	"context"
	"path/filepath"
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
