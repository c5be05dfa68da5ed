package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// sharedIterVars handles `for k, v := range x` in a file whose language
// version is before Go 1.22: there the iteration variables are declared
// once for the whole loop, and each iteration assigns them. When a closure
// captures one (SSA puts it on the heap), that assignment is a write that a
// goroutine started by an earlier iteration can race with, so it must be
// recorded just before it happens. The loop becomes
//
//	{ var k K; var v V; for *W(&k, s), v = range x { ... } }
//
// (Go evaluates the function calls on the left of a range assignment once
// per iteration, before assigning.) From Go 1.22 each iteration has fresh
// variables that nobody can reach before the assignment: nothing to record.
// It returns the declarations, the replacements of the key, the value and
// the := token, and false when the rewrite does not apply.
func (w *fileRW) sharedIterVars(s *ast.RangeStmt) (decl, kp, vp pcs, tok repl, ok bool) {
	if s.Tok != token.DEFINE || w.atLeast("go1.22") || !w.ins.api.has("W") {
		return nil, nil, nil, repl{}, false
	}
	var vars []*ast.Ident
	for _, e := range []ast.Expr{s.Key, s.Value} {
		if e == nil || isBlank(e) {
			continue
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return nil, nil, nil, repl{}, false
		}
		vars = append(vars, id)
	}
	anyHeap := false
	for _, id := range vars {
		v, ok := w.info.Defs[id].(*types.Var)
		if !ok {
			return nil, nil, nil, repl{}, false
		}
		if w.heap[v.Pos()] {
			anyHeap = true
		}
		// The range expression is evaluated in the scope outside the loop:
		// it must not see the variables declared before it.
		if mentions(s.X, id.Name) {
			return nil, nil, nil, repl{}, false
		}
	}
	if !anyHeap {
		return nil, nil, nil, repl{}, false
	}
	for _, id := range vars {
		v := w.info.Defs[id].(*types.Var)
		t, ok := w.typeText(v.Type())
		if !ok {
			return nil, nil, nil, repl{}, false
		}
		decl = decl.cat(gen("var " + id.Name + " " + t + "; "))
		var p pcs
		if w.heap[v.Pos()] {
			p = genAt(id.Pos(), "*"+w.h("W")+"(&"+id.Name+", "+w.site(id.Pos(), w.describeVar(v))+")")
		}
		if id == s.Key {
			kp = p
		} else {
			vp = p
		}
	}
	return decl, kp, vp, repl{s.TokPos, s.TokPos + 2, gen("=")}, true
}

// rangeElems returns the replacement of the range expression of a loop
// over a slice (or a pointer to an array) that reads its elements into a
// value variable: an iterator that records each element's read just before
// it, as the loop would do it (x evaluated once, its length taken once;
// the site is where go/ssa puts the element's IndexAddr, see valuePos):
//
//	for i, v := range RS(x, s) { ... }
//
// It needs range over functions (Go 1.23); nil when it does not apply.
// xp is the rewritten range expression (nil if unchanged).
func (w *fileRW) rangeElems(s *ast.RangeStmt, xp pcs) pcs {
	if s.Value == nil || isBlank(s.Value) || !w.atLeast("go1.23") {
		return nil
	}
	x := w.or(xp, s.X)
	var elem types.Type
	switch t := w.coreOf(s.X).(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Pointer:
		a, ok := coreType(t.Elem()).(*types.Array)
		if !ok {
			return nil
		}
		elem = a.Elem()
		x = gen("(").cat(x, gen(")[:]"))
	default:
		return nil
	}
	if isSyncType(elem) {
		return nil
	}
	site := w.site(valuePos(s.X), w.elemDesc(s.X))
	return genAt(s.X.Pos(), w.h("RS")+"(").cat(x, gen(", "+site+")"))
}

// valuePos is the position go/ssa gives the value of expression e (the
// loads and calls it is made of take their operator's position), which is
// also where it puts the element accesses of a range loop over e.
func valuePos(e ast.Expr) token.Pos {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return valuePos(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Pos()
	case *ast.IndexExpr:
		return x.Lbrack
	case *ast.SliceExpr:
		return x.Lbrack
	case *ast.StarExpr:
		return x.Star
	case *ast.CompositeLit:
		return x.Lbrace
	case *ast.CallExpr:
		return x.Lparen
	}
	return e.Pos()
}
