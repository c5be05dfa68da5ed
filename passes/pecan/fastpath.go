package pecan

import (
	"go/ast"
	"go/types"
	"strconv"

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
