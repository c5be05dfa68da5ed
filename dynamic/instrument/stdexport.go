package instrument

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// stdExports finds the export data of standard-library packages for the
// type-checks' fallback importer (importLoaded): a package the check
// needs that no loaded package imports, such as the fmt, os, reflect and
// testing of a generated driver added to a package without tests, or the
// runtime stub's sync/atomic.
//
// The fallback was go/importer's "gc" importer without a lookup, which
// finds a standard package's export data with a `go list -export` of
// that one package (internal/exportdata.lookupGorootExport): one go
// command after another, each loading the standard library's package
// graph. OrlovEvgeny/go-mcache's gcmap (no test files, six generated
// drivers) ran six of them in a row, fmt, os, reflect, testing, sync and
// sync/atomic, 33 s of its 56 s build at load ~25 under strace (trial
// 31's 136 s build of that package had a 25 s instrument phase; the same
// six were in it). Here the first package the fallback needs asks one
// go list for every standard package any of the check's files imports
// (want), run as the importer runs its own (in GOROOT, the same
// environment), and the importer reads the export files it named. The
// export data is the same file, so the types are the same; a package
// outside that list is looked up alone, as before.
type stdExports struct {
	ctx  context.Context
	want []string // candidates, asked for together on the first lookup

	mu     sync.Mutex
	asked  bool
	files  map[string]string // import path → export file
	listed int               // go list runs (tests)
}

// newStdExports returns the lookup for the standard packages among the
// imports of files and of extra (generated files, not parsed yet) and the
// runtime stub's (stubImports).
func newStdExports(ctx context.Context, pkgs []*packages.Package, extra map[string][]byte) *stdExports {
	seen := map[string]bool{}
	var want []string
	add := func(path string) {
		if seen[path] || !isStdPath(path) {
			return
		}
		seen[path] = true
		want = append(want, path)
	}
	addFile := func(f *ast.File) {
		for _, is := range f.Imports {
			if p, err := strconv.Unquote(is.Path.Value); err == nil {
				add(p)
			}
		}
	}
	for p := range stubImports {
		add(p)
	}
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			addFile(f)
		}
	}
	for _, src := range extra {
		if f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly); err == nil {
			addFile(f)
		}
	}
	sort.Strings(want)
	return &stdExports{ctx: ctx, want: want}
}

// isStdPath reports whether path can name a standard package: its first
// element has no dot, and it is neither "C" nor "unsafe" (no export data).
func isStdPath(path string) bool {
	if path == "" || path == "C" || path == "unsafe" {
		return false
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// importer returns a "gc" importer (one universe of packages, as the one
// it replaces) reading export data through s.
func (s *stdExports) importer(fset *token.FileSet) types.Importer {
	if s == nil {
		return importer.ForCompiler(fset, "gc", nil)
	}
	return importer.ForCompiler(fset, "gc", s.lookup)
}

// lookup opens the export data of path.
func (s *stdExports) lookup(path string) (io.ReadCloser, error) {
	s.mu.Lock()
	if !s.asked {
		s.asked = true
		s.files = s.list(s.want)
	}
	file, ok := s.files[path]
	if !ok {
		// Not among the candidates: alone, as the importer without a
		// lookup does (and only for a standard package, as it finds).
		if isStdPath(path) {
			if m := s.list([]string{path}); m[path] != "" {
				file = m[path]
				s.files[path] = file
			}
		}
	}
	s.mu.Unlock()
	if file == "" {
		return nil, fmt.Errorf("can't find import: %q", path)
	}
	return os.Open(file)
}

// list runs one go list -export for paths, in GOROOT and with GOROOT set,
// as internal/exportdata does for one package, and returns each standard
// package's export file. Paths that are not standard packages, or have
// no export data, are left out.
func (s *stdExports) list(paths []string) map[string]string {
	files := map[string]string{}
	if len(paths) == 0 {
		return files
	}
	s.listed++
	goroot := build.Default.GOROOT
	args := append([]string{"list", "-e", "-export", "-f", "{{if .Standard}}{{if .Export}}{{.ImportPath}}\t{{.Export}}{{end}}{{end}}", "--"}, paths...)
	cmd := exec.CommandContext(s.ctx, filepath.Join(goroot, "bin", "go"), args...)
	cmd.Dir = goroot
	cmd.Env = append(os.Environ(), "PWD="+goroot, "GOROOT="+goroot)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && !errors.As(err, new(*exec.ExitError)) {
		return files
	}
	for _, l := range strings.Split(string(out), "\n") {
		if path, file, ok := strings.Cut(strings.TrimSpace(l), "\t"); ok && file != "" {
			files[path] = file
		}
	}
	return files
}
