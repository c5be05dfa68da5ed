package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/static/load"
)

// loadDependSrc loads static/depend's testdata package pkg (its shapes
// are the code the judge's tests name sites in) and returns it with the
// lines of its file pkg/pkg.go, to find those sites by their text.
func loadDependSrc(t *testing.T, pkg string) (*load.Packages, []string) {
	t.Helper()
	dir, err := filepath.Abs("../static/depend/testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := load.Load(context.Background(), dir, []string{"./" + pkg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, pkg, pkg+".go"))
	if err != nil {
		t.Fatal(err)
	}
	return loaded, strings.Split(string(src), "\n")
}
