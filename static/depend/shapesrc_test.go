package depend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// buildShapes indexes testdata package pkg (a file of shapes the judge's
// tests name sites in) and returns the index with the lines of
// pkg/pkg.go, to find those sites by their text.
func buildShapes(t *testing.T, pkg string) (*Index, []string) {
	t.Helper()
	root, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax, Dir: root, Tests: true}, "./"+pkg)
	if err != nil {
		t.Fatal(err)
	}
	x, err := Build(pkgs, root)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, pkg, pkg+".go"))
	if err != nil {
		t.Fatal(err)
	}
	return x, strings.Split(string(src), "\n")
}
