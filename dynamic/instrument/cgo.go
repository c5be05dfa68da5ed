package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// cgoInfo returns type information for orig, a cgo file as written, from
// that of twin, the file cgo generated from it. cgo keeps the positions of
// the Go code it leaves alone (its output is full of line directives), so
// a node of orig has the information of the node of twin of the same kind
// that starts and ends at the same original position. References to C
// (rewritten by cgo) have no twin: they get no information and so no
// instrumentation.
func cgoInfo(fset *token.FileSet, orig, twin *ast.File, info *types.Info) *types.Info {
	key := func(n ast.Node) string {
		p, e := fset.Position(n.Pos()), fset.Position(n.End())
		return fmt.Sprintf("%T %d:%d %d:%d", n, p.Line, p.Column, e.Line, e.Column)
	}
	tvs := make(map[string]types.TypeAndValue)
	objs := make(map[string]types.Object)
	defs := make(map[string]types.Object)
	sels := make(map[string]*types.Selection)
	ast.Inspect(twin, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		k := key(e)
		if tv, ok := info.Types[e]; ok {
			tvs[k] = tv
		}
		switch e := e.(type) {
		case *ast.Ident:
			if o := info.Uses[e]; o != nil {
				objs[k] = o
			}
			if o := info.Defs[e]; o != nil {
				defs[k] = o
			}
		case *ast.SelectorExpr:
			if s := info.Selections[e]; s != nil {
				sels[k] = s
			}
		}
		return true
	})
	out := &types.Info{
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Uses:       make(map[*ast.Ident]types.Object),
		Defs:       make(map[*ast.Ident]types.Object),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
	}
	ast.Inspect(orig, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		k := key(e)
		if tv, ok := tvs[k]; ok {
			out.Types[e] = tv
		}
		switch e := e.(type) {
		case *ast.Ident:
			if o := objs[k]; o != nil {
				out.Uses[e] = o
			}
			if o := defs[k]; o != nil {
				out.Defs[e] = o
			}
		case *ast.SelectorExpr:
			if s := sels[k]; s != nil {
				out.Selections[e] = s
			}
		}
		return true
	})
	return out
}
