// Package load loads the packages under check once, with their tests, for
// driver generation (static/driver) and instrumentation
// (dynamic/instrument) alike.
//
// The packages are loaded from source, their dependencies from export
// data: one type-check of the packages, where each stage loading its own
// cost it twice, and no compile of them (source.go).
package load

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Mode is what the load asks of go/packages: the union of what driver
// generation needs (syntax, types and sizes, to run the candidates
// analyzer and type-check drivers against the package) and what
// instrumentation needs (the compiled files, imports, syntax and types, to
// rewrite the files and to find the module's packages they import).
// Dependencies come from export data (no NeedDeps): type-checking the
// standard library from source would cost seconds on every check.
const Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedSyntax | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedTypesSizes | packages.NeedModule

// Packages are the loaded packages.
type Packages struct {
	Dir        string // the go command's working directory, absolute
	Patterns   []string
	BuildFlags []string
	Fset       *token.FileSet
	// List is what packages.Load returned: each package matching the
	// patterns with its test variants ("p [p.test]", "p_test [p.test]",
	// "p.test"). The packages are shared: a stage that changes one (adds
	// a file to it) changes a copy, in a list of its own.
	List []*packages.Package

	// src is what loadSource read for LoadFromSource: the import graph
	// the packages' listing holds and the types of the imports read from
	// export data; nil when the packages were loaded the go/packages way.
	src *sourceDeps
}

// SourceDeps names, given the listing of the packages under check (their
// whole import graph, no types yet), the packages a later stage will load
// from source with LoadFromSource (the instrumenter's module
// dependencies): the load reads their imports' types from export data in
// its own go list, which then saves that stage a go list of its own.
type SourceDeps func(roots []*packages.Package) []string

// Load loads the packages matching patterns (default ".") with their
// tests, in dir (default the current directory) with the go command's
// buildFlags. A package with errors is still loaded, with its Errors: each
// stage decides what they mean to it.
func Load(ctx context.Context, dir string, patterns, buildFlags []string) (*Packages, error) {
	return LoadFor(ctx, dir, patterns, buildFlags, nil)
}

// LoadFor is Load, also reading the types of the imports of the packages
// that plan names (if not nil), for LoadFromSource.
func LoadFor(ctx context.Context, dir string, patterns, buildFlags []string, plan SourceDeps) (*Packages, error) {
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	p := &Packages{Dir: dir, Patterns: patterns, BuildFlags: buildFlags, Fset: token.NewFileSet()}
	list, src, ok, err := loadSource(p.Config(ctx), patterns, plan)
	p.src = src
	if err == nil && !ok {
		list, err = packages.Load(p.Config(ctx), patterns...)
	}
	p.List = list
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	return p, nil
}

// Config returns the configuration the packages were loaded with: to load
// more packages alike (the module's packages they import), into the same
// file set.
func (p *Packages) Config(ctx context.Context) *packages.Config {
	return &packages.Config{
		Context:    ctx,
		Mode:       Mode,
		Dir:        p.Dir,
		BuildFlags: p.BuildFlags,
		Tests:      true,
		Fset:       p.Fset,
	}
}
