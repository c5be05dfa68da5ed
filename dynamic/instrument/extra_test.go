package instrument

import (
	"context"
	"go/types"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/static/load"
)

// TestHostImporterTakesLoaded: a driver file's import that its package
// does not import (os, which every driver imports as pecanvetos) is the
// test main's os as the load read it, complete: the same types.Package,
// not one the export-data fallback (a go list per check) would make.
func TestHostImporterTakesLoaded(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\ntype counter struct{ n int }\n\nfunc (c *counter) inc() { c.n++ }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestInc(t *testing.T) { (&counter{}).inc() }\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := load.Load(context.Background(), dir, []string{"./a"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var host, main *packages.Package
	for _, p := range loaded.List {
		switch p.ID {
		case "example.com/m/a [example.com/m/a.test]":
			host = p
		case "example.com/m/a.test":
			main = p
		}
	}
	if host == nil || main == nil || main.Imports["os"] == nil {
		t.Fatalf("no test variant or no test main importing os: %v", loaded.List)
	}
	if host.Imports["os"] != nil {
		t.Fatal("the package imports os: the case is not tested")
	}
	got, err := hostImporter(host, loaded.List, nil).Import("os")
	if err != nil || got != main.Imports["os"].Types || !got.Complete() {
		t.Errorf("Import(os) = %v, %v; want the test main's os, complete", got, err)
	}
	// A test variant, an incomplete package or one with errors is not
	// taken for the package.
	whole := types.NewPackage("os", "os")
	whole.MarkComplete()
	for _, ip := range []*packages.Package{
		{ID: "os [x.test]", PkgPath: "os", Types: whole},
		{ID: "os", PkgPath: "os", Types: types.NewPackage("os", "os")},
		{ID: "os", PkgPath: "os", Types: whole, Errors: []packages.Error{{Msg: "bad"}}},
	} {
		if got := wholeImport([]*packages.Package{{Imports: map[string]*packages.Package{"os": ip}}}, "os"); got != nil {
			t.Errorf("wholeImport took %s (complete %v, %d errors)", ip.ID, ip.Types.Complete(), len(ip.Errors))
		}
	}
}
