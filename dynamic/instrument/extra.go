package instrument

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/static/load"
)

// joinExtra adds the extra files (generated test drivers: Options.Extra)
// to the packages loaded without them, each to the package variant of its
// directory that takes test files of its package name (the internal test
// variant, or the package itself when it has none), and type-checks that
// variant again with them. Loading with them as an overlay would be
// simpler, but go/packages then takes every dependency's export data for
// stale and type-checks the whole import graph from source, the standard
// library included: about 1.5 s and 200 MB more per checked package.
//
// An extra file that does not parse or type-check with its package is
// left out, with a note: driver.Generate type-checked it already, so that
// is not expected.
func joinExtra(pkgs []*packages.Package, extra map[string][]byte, exports *stdExports) []note.Note {
	var notes []note.Note
	copied := map[*packages.Package]bool{}
	for _, path := range sortedKeys(extra) {
		i := extraHost(pkgs, path)
		if i < 0 {
			notes = append(notes, note.New(note.Instrument, "", "", "%s: no package to add it to; left out", path))
			continue
		}
		host := pkgs[i]
		f, err := parser.ParseFile(host.Fset, path, extra[path], parser.ParseComments|parser.SkipObjectResolution)
		if err == nil && f.Name.Name != host.Name {
			err = fmt.Errorf("package %s, not %s", f.Name.Name, host.Name)
		}
		if err != nil {
			notes = append(notes, note.New(note.Instrument, "", "", "%s: %v; left out", path, err))
			continue
		}
		files := append(append([]*ast.File(nil), host.Syntax...), f)
		info := load.NewInfo()
		var errs []string
		conf := &types.Config{
			Importer: hostImporter(host, pkgs, exports),
			Sizes:    types.SizesFor("gc", runtime.GOARCH),
			Error:    func(err error) { errs = append(errs, err.Error()) },
		}
		if host.Module != nil && host.Module.GoVersion != "" {
			conf.GoVersion = "go" + host.Module.GoVersion
		}
		pkg, _ := conf.Check(host.PkgPath, host.Fset, files, info)
		if len(errs) > 0 {
			notes = append(notes, note.New(note.Instrument, "", "", "%s: does not type-check with its package (%s); left out", path, strings.Join(errs, "; ")))
			continue
		}
		// A copy takes the package's place in pkgs: the loaded one stays
		// as the packages that import it (its external tests) saw it
		// when they were type-checked, for their SSA (heapVars).
		if !copied[host] {
			c := *host
			host = &c
			pkgs[i] = host
			copied[host] = true
		}
		host.Syntax, host.Types, host.TypesInfo = files, pkg, info
		// The driver's imports, for SSA (heapVars) and importers.
		imports := make(map[string]*packages.Package, len(host.Imports))
		for k, v := range host.Imports {
			imports[k] = v
		}
		for _, tp := range pkg.Imports() {
			if imports[tp.Path()] == nil {
				imports[tp.Path()] = &packages.Package{ID: tp.Path(), PkgPath: tp.Path(), Name: tp.Name(), Types: tp, Fset: host.Fset}
			}
		}
		host.Imports = imports
		host.GoFiles = append(append([]string(nil), host.GoFiles...), path)
		host.CompiledGoFiles = append(append([]string(nil), host.CompiledGoFiles...), path)
	}
	return notes
}

// extraHost returns the index in pkgs of the package variant an extra file
// at path joins, or -1: of
// the main module, in its directory, the internal test variant if there
// is one, else the package itself.
func extraHost(pkgs []*packages.Package, path string) int {
	dir := filepath.Dir(path)
	var cands []int
	for i, p := range pkgs {
		if p.Module == nil || !p.Module.Main || p.Types == nil || len(p.GoFiles) == 0 || isXTest(p) || strings.HasSuffix(p.ID, ".test") {
			continue
		}
		if filepath.Dir(p.GoFiles[0]) == dir {
			cands = append(cands, i)
		}
	}
	// "p [p.test]" before "p".
	sort.SliceStable(cands, func(i, j int) bool {
		return strings.Contains(pkgs[cands[i]].ID, " [") && !strings.Contains(pkgs[cands[j]].ID, " [")
	})
	if len(cands) == 0 {
		return -1
	}
	return cands[0]
}

// hostImporter imports for a package checked again with a driver file,
// which may import packages the package does not (importLoaded): also
// those its external tests import, from which the driver's setups are
// copied (go-quartz's job tests import its internal/assert, which job
// does not), and a whole package another loaded package imports (the
// driver's os, which the test main imports): read from export data by
// the same load, the package its other imports refer to, where
// importLoaded's fallback cost a go list -export per check.
func hostImporter(host *packages.Package, pkgs []*packages.Package, exports *stdExports) types.Importer {
	var fallback types.Importer
	return importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		if host.Imports[path] == nil {
			for _, p := range pkgs {
				if p.PkgPath == host.PkgPath+"_test" {
					if ip := p.Imports[path]; ip != nil && ip.Types != nil {
						return ip.Types, nil
					}
				}
			}
			if tp := wholeImport(pkgs, path); tp != nil {
				return tp, nil
			}
		}
		return importLoaded(host, path, true, &fallback, exports)
	})
}

// wholeImport returns the types of path as a package of pkgs imports it
// whole: not a test variant ("q [p.test]"), complete, without errors; nil
// if none does.
func wholeImport(pkgs []*packages.Package, path string) *types.Package {
	for _, p := range pkgs {
		if ip := p.Imports[path]; ip != nil && ip.ID == ip.PkgPath && ip.Types != nil && ip.Types.Complete() && len(ip.Errors) == 0 {
			return ip.Types
		}
	}
	return nil
}
