package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Package reflect reads and writes the variables a reflect.Value refers to
// in code that is not instrumented; these rewrites record those accesses
// (rt/reflect.go says which Values refer to a variable).

// reflectReads and reflectWrites are the methods of reflect.Value that read
// or write the whole variable the Value refers to. (String is not among the
// reads: on a Value of another kind it reads nothing.)
var (
	reflectReads = map[string]bool{"Bool": true, "Bytes": true, "Complex": true, "Float": true,
		"Int": true, "Interface": true, "Uint": true, "Pointer": true, "UnsafePointer": true}
	reflectWrites = map[string]bool{"Set": true, "SetBool": true, "SetBytes": true, "SetComplex": true,
		"SetFloat": true, "SetInt": true, "SetLen": true, "SetCap": true, "SetPointer": true,
		"SetString": true, "SetUint": true, "SetZero": true, "SetIterKey": true, "SetIterValue": true}
)

// reflectCall rewrites a call of a reflect.Value method that accesses the
// Value's variable (v.Set(x) becomes rt.ReflectW(v, site).Set(x)) and
// reflect.Copy (rt.ReflectCopy). The access is recorded when the receiver
// has been evaluated, before the arguments: a write is rewritten only when
// evaluating its arguments cannot synchronize (see syncFree), so that
// nothing comes between the record and the write that matters. A deferred
// call is left alone (it would record at the defer, not at the call).
// It returns nil for other calls.
func (w *fileRW) reflectCall(e *ast.CallExpr) pcs {
	if e == w.deferred || !w.ins.api.has("ReflectW") {
		return nil
	}
	fun := unparen(e.Fun)
	if fn := w.calleeFunc(fun); fn != nil {
		if fn.Pkg() == nil || fn.Pkg().Path() != "reflect" || fn.Name() != "Copy" || len(e.Args) != 2 || e.Ellipsis.IsValid() {
			return nil
		}
		w.keepRef(fun)
		site := w.site(e.Lparen, "reflect.Copy elem")
		return genAt(e.Pos(), rtName+".ReflectCopy(").cat(w.load(e.Args[0]), gen(", "), w.load(e.Args[1]), gen(", "+site+")"))
	}
	sx, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	sel := w.info.Selections[sx]
	if sel == nil || sel.Kind() != types.MethodVal || len(sel.Index()) != 1 {
		return nil
	}
	fn, ok := sel.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" {
		return nil
	}
	if n := namedOf(w.typeOf(sx.X)); n == nil || n.Obj().Name() != "Value" || isPointer(w.typeOf(sx.X)) {
		return nil
	}
	var wrapper string
	switch {
	case reflectReads[fn.Name()]:
		wrapper = "ReflectR"
	case reflectWrites[fn.Name()]:
		for _, a := range e.Args {
			if !w.syncFree(a) {
				return nil
			}
		}
		wrapper = "ReflectW"
	default:
		return nil
	}
	site := w.site(e.Lparen, "reflect.Value target")
	recv := genAt(sx.Pos(), rtName+"."+wrapper+"(").cat(w.load(sx.X), gen(", "+site+")."+sx.Sel.Name))
	rs := []repl{rn(e.Fun, recv)}
	for _, a := range e.Args {
		rs = append(rs, rn(a, w.expr(a, cLoad)))
	}
	return w.nodeSplice(e, rs...)
}

// syncFree reports whether evaluating e can perform no synchronization: it
// receives from no channel and calls nothing but conversions, builtins
// other than close, and functions and methods of package reflect.
func (w *fileRW) syncFree(e ast.Expr) bool {
	free := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // not called by being evaluated
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				free = false
			}
		case *ast.CallExpr:
			tv := w.info.Types[n.Fun]
			switch {
			case tv.IsType():
			case tv.IsBuiltin():
				if id, ok := unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" {
					free = false
				}
			default:
				if !w.reflectFunc(n.Fun) {
					free = false
				}
			}
		}
		return free
	})
	return free
}

// reflectFunc reports whether f denotes a function or method of package
// reflect.
func (w *fileRW) reflectFunc(f ast.Expr) bool {
	var obj types.Object
	switch x := unparen(f).(type) {
	case *ast.Ident:
		obj = w.info.Uses[x]
	case *ast.SelectorExpr:
		if sel := w.info.Selections[x]; sel != nil {
			obj = sel.Obj()
		} else {
			obj = w.info.Uses[x.Sel]
		}
	}
	fn, ok := obj.(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "reflect"
}
