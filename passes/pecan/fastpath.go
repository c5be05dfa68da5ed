package pecan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// hiddenGoroutines lists standard-library APIs that run the caller's code
// (a callback, a handler, a finalizer, an io.Writer) on a goroutine of
// their own, or run tests concurrently: a package that uses one has
// concurrency although it may have no go statement, channel or sync
// import. Keyed by package path; the names are package-level functions and
// types, methods, or struct fields (exec.Cmd's Stdin/Stdout/Stderr: the
// command's copying goroutines write into a user io.Writer).
var hiddenGoroutines = map[string]map[string]bool{
	"time":      {"AfterFunc": true},
	"context":   {"AfterFunc": true},
	"os/signal": {"Notify": true},
	"os/exec":   {"Stdin": true, "Stdout": true, "Stderr": true},
	"net/http": {
		"Handle": true, "HandleFunc": true, "HandlerFunc": true, "ListenAndServe": true,
		"ListenAndServeTLS": true, "Serve": true, "ServeTLS": true, "Server": true,
	},
	"net/http/httptest": {"NewServer": true, "NewTLSServer": true, "NewUnstartedServer": true},
	"runtime":           {"SetFinalizer": true, "AddCleanup": true},
	"testing":           {"Parallel": true}, // parallel subtests of one test run at once
}

// usesHiddenGoroutines reports whether the package refers to one of
// hiddenGoroutines.
func usesHiddenGoroutines(pass *analysis.Pass) bool {
	for _, obj := range pass.TypesInfo.Uses {
		if obj == nil || obj.Pkg() == nil {
			continue
		}
		names := hiddenGoroutines[obj.Pkg().Path()]
		if names == nil || !names[obj.Name()] {
			continue
		}
		switch obj := obj.(type) {
		case *types.Func, *types.TypeName:
			return true
		case *types.Var:
			if obj.IsField() {
				return true
			}
		}
	}
	return false
}

// fileHidesGoroutines is usesHiddenGoroutines from one file's syntax alone
// (for test files outside the analyzed unit): a selector pkg.Name or
// x.Name whose name is listed for a package the file imports.
func fileHidesGoroutines(f *ast.File) bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		for n := range hiddenGoroutines[p] {
			names[n] = true
		}
	}
	if len(names) == 0 {
		return false
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			found = found || names[n.Sel.Name]
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				found = found || names[id.Name]
			}
		}
		return !found
	})
	return found
}

// moduleDepsConcurrent reports whether a package of the module that the
// analyzed package imports, directly or through other packages of the
// module, has goroutines, channels or sync (from its syntax alone: any of
// its non-test files). Such a package's goroutines may run the analyzed
// package's code (a callback a worker pool runs), and pecanvet records
// its goroutines and synchronization (instrument's moduleDeps): the
// package is checked, not taken for sequential. Packages of other
// modules are not looked at: the analyzer finds no sources for them.
func moduleDepsConcurrent(pass *analysis.Pass, dir string) bool {
	root, modPath := findModule(dir)
	if root == "" {
		return false
	}
	inModule := func(path string) (string, bool) {
		if path == modPath {
			return root, true
		}
		if rest, ok := strings.CutPrefix(path, modPath+"/"); ok {
			return filepath.Join(root, filepath.FromSlash(rest)), true
		}
		return "", false
	}
	seen := map[string]bool{}
	var queue []string
	for _, imp := range pass.Pkg.Imports() {
		if d, ok := inModule(imp.Path()); ok && !seen[d] {
			seen[d] = true
			queue = append(queue, d)
		}
	}
	fset := token.NewFileSet()
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		names, _ := filepath.Glob(filepath.Join(d, "*.go"))
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			if fileConcurrent(f) {
				return true
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if d, ok := inModule(p); ok && !seen[d] {
					seen[d] = true
					queue = append(queue, d)
				}
			}
		}
	}
	return false
}

// fileConcurrent reports whether a file imports sync or sync/atomic, uses
// an API that runs code on a goroutine of its own (hiddenGoroutines), or
// has a go statement, a channel type or a send.
func fileConcurrent(f *ast.File) bool {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "sync" || p == "sync/atomic" {
			return true
		}
	}
	if fileHidesGoroutines(f) {
		return true
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.GoStmt, *ast.ChanType, *ast.SendStmt:
			found = true
		}
		return !found
	})
	return found
}

// findModule returns the directory of the go.mod that holds dir, and the
// module's path, or "" if there is none.
func findModule(dir string) (root, path string) {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					p := strings.Trim(strings.TrimSpace(rest), `"`)
					if i := strings.Index(p, "//"); i >= 0 {
						p = strings.TrimSpace(p[:i])
					}
					return d, p
				}
			}
			return "", ""
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}
