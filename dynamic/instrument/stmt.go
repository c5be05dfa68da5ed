package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// stmt rewrites statement s; nil means unchanged. list says s is an
// element of a statement list, where it may become a block.
func (w *fileRW) stmt(s ast.Stmt, list bool) pcs {
	if s == nil || w.skip[s] {
		return nil
	}
	if testBreakStmt != nil && testBreakStmt(w.ins.fset, s) {
		// A rewrite that does not type-check, for the test of the fallback.
		return w.origN(s).cat(gen("; pecanvetUndefined__()"))
	}
	switch s := s.(type) {
	case *ast.BlockStmt:
		return w.blockIns(s, nil)
	case *ast.ExprStmt:
		w.discard(s.X)
		return w.nodeSplice(s, rn(s.X, w.expr(s.X, cLoad)))
	case *ast.AssignStmt:
		return w.assign(s, list)
	case *ast.IncDecStmt:
		return w.incdec(s, list)
	case *ast.SendStmt:
		return w.send(s, list)
	case *ast.GoStmt:
		return w.goStmt(s)
	case *ast.DeferStmt:
		saved := w.deferred
		w.deferred = s.Call
		defer func() { w.deferred = saved }()
		w.discard(s.Call)
		return w.nodeSplice(s, rn(s.Call, w.expr(s.Call, cLoad)))
	case *ast.ReturnStmt:
		if p := w.returnWrites(s, list); p != nil {
			return p
		}
		var rs []repl
		for _, r := range s.Results {
			rs = append(rs, rn(r, w.expr(r, cLoad)))
		}
		return w.nodeSplice(s, rs...)
	case *ast.BranchStmt:
		return w.branch(s)
	case *ast.IfStmt:
		return w.nodeSplice(s, rn(s.Init, w.stmt(s.Init, false)), rn(s.Cond, w.expr(s.Cond, cLoad)),
			rn(s.Body, w.stmt(s.Body, false)), rn(s.Else, w.stmt(s.Else, false)))
	case *ast.ForStmt:
		init := w.stmt(s.Init, false)
		cond := w.expr(s.Cond, cLoad)
		post := w.stmt(s.Post, false)
		w.pushBrk(s)
		body := w.stmt(s.Body, false)
		w.popBrk()
		return w.nodeSplice(s, rn(s.Init, init), rn(s.Cond, cond), rn(s.Post, post), rn(s.Body, body))
	case *ast.RangeStmt:
		p, _ := w.rangeStmt(s, nil)
		return p
	case *ast.SwitchStmt:
		init := w.stmt(s.Init, false)
		tag := w.expr(s.Tag, cLoad)
		w.pushBrk(s)
		body := w.clauses(s.Body)
		w.popBrk()
		return w.nodeSplice(s, rn(s.Init, init), rn(s.Tag, tag), rn(s.Body, body))
	case *ast.TypeSwitchStmt:
		init := w.stmt(s.Init, false)
		var assign pcs
		switch a := s.Assign.(type) {
		case *ast.AssignStmt:
			if ta, ok := a.Rhs[0].(*ast.TypeAssertExpr); ok {
				assign = w.nodeSplice(a, rn(ta.X, w.expr(ta.X, cLoad)))
			}
		case *ast.ExprStmt:
			if ta, ok := a.X.(*ast.TypeAssertExpr); ok {
				assign = w.nodeSplice(a, rn(ta.X, w.expr(ta.X, cLoad)))
			}
		}
		w.pushBrk(s)
		body := w.clauses(s.Body)
		w.popBrk()
		return w.nodeSplice(s, rn(s.Init, init), rn(s.Assign, assign), rn(s.Body, body))
	case *ast.SelectStmt:
		p, _ := w.selectStmt(s, nil)
		return p
	case *ast.LabeledStmt:
		if w.skip[s.Stmt] {
			return nil
		}
		switch inner := s.Stmt.(type) {
		case *ast.RangeStmt:
			if p, whole := w.rangeStmt(inner, s); whole {
				return p
			} else {
				return w.nodeSplice(s, rn(inner, p))
			}
		case *ast.SelectStmt:
			if p, whole := w.selectStmt(inner, s); whole {
				return p
			} else {
				return w.nodeSplice(s, rn(inner, p))
			}
		}
		return w.nodeSplice(s, rn(s.Stmt, w.stmt(s.Stmt, list)))
	case *ast.DeclStmt:
		if d, ok := s.Decl.(*ast.GenDecl); ok {
			return w.nodeSplice(s, rn(d, w.genDecl(d)))
		}
	}
	return nil
}

// testBreakStmt, set by a test, makes the rewrite of the statements it
// selects fail to type-check.
var testBreakStmt func(*token.FileSet, ast.Stmt) bool

func (w *fileRW) pushBrk(s ast.Stmt) { w.fn.brk = append(w.fn.brk, s) }
func (w *fileRW) popBrk()            { w.fn.brk = w.fn.brk[:len(w.fn.brk)-1] }

// blockIns rewrites a block; insert goes right after its '{'.
func (w *fileRW) blockIns(b *ast.BlockStmt, insert pcs) pcs { return w.blockInsEnd(b, insert, nil) }

// blockInsEnd is blockIns that also puts end right before the block's
// '}' (if not nil).
func (w *fileRW) blockInsEnd(b *ast.BlockStmt, insert, end pcs) pcs {
	if b == nil {
		return nil
	}
	rs := []repl{insertAt(b.Lbrace+1, insert)}
	for _, s := range b.List {
		rs = append(rs, rn(s, w.stmt(s, true)))
	}
	if end != nil {
		rs = append(rs, insertAt(b.Rbrace, end))
	}
	return w.nodeSplice(b, rs...)
}

// clauses rewrites the body of a switch or type switch.
func (w *fileRW) clauses(b *ast.BlockStmt) pcs {
	var rs []repl
	for _, c := range b.List {
		cc := c.(*ast.CaseClause)
		var crs []repl
		for _, e := range cc.List {
			crs = append(crs, rn(e, w.expr(e, cLoad)))
		}
		for _, s := range cc.Body {
			crs = append(crs, rn(s, w.stmt(s, true)))
		}
		rs = append(rs, rn(cc, w.nodeSplice(cc, crs...)))
	}
	return w.nodeSplice(b, rs...)
}

func (w *fileRW) genDecl(d *ast.GenDecl) pcs {
	if d.Tok != token.VAR {
		return nil
	}
	var rs []repl
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		var vrs []repl
		for _, v := range vs.Values {
			vrs = append(vrs, rn(v, w.expr(v, cLoad)))
		}
		rs = append(rs, rn(vs, w.nodeSplice(vs, vrs...)))
	}
	return w.nodeSplice(d, rs...)
}

// branch rewrites a break that leaves a range-over-channel loop, so that the
// loop knows it did not end because the channel was closed, and a continue
// of one, which gates the loop's next receive first (rt.RangeGate).
func (w *fileRW) branch(s *ast.BranchStmt) pcs {
	if s.Tok == token.CONTINUE {
		var target ast.Stmt
		if s.Label != nil {
			target = w.fn.labels[s.Label.Name]
		} else {
			for i := len(w.fn.brk) - 1; i >= 0 && target == nil; i-- {
				switch l := w.fn.brk[i].(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					target = l
				}
			}
		}
		if g, ok := w.fn.rgate[target]; ok {
			return gen("{ "+g+"; ").cat(w.origN(s), gen(" }"))
		}
		return nil
	}
	if s.Tok != token.BREAK {
		return nil
	}
	var target ast.Stmt
	if s.Label != nil {
		target = w.fn.labels[s.Label.Name]
	} else if len(w.fn.brk) > 0 {
		target = w.fn.brk[len(w.fn.brk)-1]
	}
	flag, ok := w.fn.rchan[target]
	if !ok {
		return nil
	}
	return gen("{ "+flag+" = true; ").cat(w.origN(s), gen(" }"))
}

// ---- Assignments ----

// LHS kinds.
const (
	lBlank = iota
	lPlain // a variable that is not instrumented (no operands to evaluate)
	lLoc   // an instrumented location
	lMap   // a map element
	lOther // a location that is not instrumented but has operands
)

func (w *fileRW) lhsKind(e ast.Expr) int {
	if id, ok := unparen(e).(*ast.Ident); ok {
		if id.Name == "_" {
			return lBlank
		}
		if v, ok := w.info.Uses[id].(*types.Var); ok && w.sharedVar(v) && w.plainMemory(e) {
			return lLoc
		}
		return lPlain
	}
	if ix, ok := unparen(e).(*ast.IndexExpr); ok {
		if _, ok := w.coreOf(ix.X).(*types.Map); ok {
			return lMap
		}
	}
	if w.addressable(e) && w.shared(e) && w.plainMemory(e) {
		return lLoc
	}
	return lOther
}

// storeSite registers the site of a store to e (the position go/ssa gives
// the Store or MapUpdate).
func (w *fileRW) storeSite(e ast.Expr) string {
	return w.site(accessPos(unparen(e)), w.describe(e))
}

// accessPos is the position of the access to location e, as go/ssa reports
// it: the identifier, the selector's field name, the index's '[' or the
// '*' of an indirection.
func accessPos(e ast.Expr) token.Pos {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Pos()
	case *ast.IndexExpr:
		return x.Lbrack
	case *ast.StarExpr:
		return x.Star
	case *ast.ParenExpr:
		return accessPos(x.X)
	}
	return e.Pos()
}

// lhsInline is the assignable text for LHS e; helper is W (store) or RW
// (read-modify-write). val, for a store of a map element or of a
// slice-typed variable, is the text of the value stored when evaluating
// it again gives that value and does nothing else (valAgain), else "".
func (w *fileRW) lhsInline(e ast.Expr, kind int, helper, val string) pcs {
	switch kind {
	case lLoc:
		site := w.storeSite(e)
		if helper == "W" && w.whole(e) {
			helper = "WV"
		}
		if helper == "W" && val != "" && w.lenRecorded(e) {
			return gen("*"+w.h("WL")+"(").cat(w.addrOf(e), gen(", "+site+")("+val+")"))
		}
		return gen("*"+w.h(helper)+"(").cat(w.addrOf(e), gen(", "+site+")"))
	case lMap:
		ix := unparen(e).(*ast.IndexExpr)
		site := w.site(ix.Lbrack, w.typeStr(w.typeOf(ix.X)))
		k := ""
		if key, ok := w.keyAgain(ix.Index); ok {
			helper, k = helper+"K", ", "+key
		}
		m := gen(w.h("M"+helper)+"(").cat(w.load(ix.X), gen(k+", "+site+")"))
		if helper == "WK" && val != "" && w.valIdentified(ix.X) {
			m = gen(w.h("MWKV")+"(").cat(w.load(ix.X), gen(k+", "+site+")("+val+")"))
		}
		return w.or(w.splice(e.Pos(), e.End(), rn(ix.X, m), rn(ix.Index, w.expr(ix.Index, cLoad))), e)
	case lOther:
		return w.expr(e, cAddr)
	}
	return nil
}

func (w *fileRW) assign(s *ast.AssignStmt, list bool) pcs {
	w.markSelfAppend(s)
	commaOK := len(s.Lhs) == 2 && len(s.Rhs) == 1
	rhs := make([]pcs, len(s.Rhs))
	for i, r := range s.Rhs {
		rhs[i] = w.rhs(r, commaOK)
	}
	switch s.Tok {
	case token.DEFINE:
		return w.define(s, list, rhs)
	case token.ASSIGN:
	default:
		return w.opAssign(s, list, rhs[0])
	}
	kinds := make([]int, len(s.Lhs))
	inst := false
	for i, l := range s.Lhs {
		kinds[i] = w.lhsKind(l)
		if kinds[i] == lLoc || kinds[i] == lMap {
			inst = true
		}
	}
	if inst && list && w.blockable(s, kinds, rhs) {
		if p := w.assignBlock(s, kinds, rhs); p != nil {
			return p
		}
	}
	if inst && !list && len(s.Lhs) == 1 && len(s.Rhs) == 1 && kinds[0] == lLoc && !w.isPure(s.Rhs[0]) && w.ins.api.has("XSet") {
		// An init or post statement, which cannot become a block: the
		// write is recorded after the right-hand side (XSet), not before
		// it as the inline form would. The address is taken first, as
		// Go evaluates the left-hand side's operands first.
		l, h := s.Lhs[0], "Set"
		if w.whole(l) {
			h = "SetV"
		}
		return genAt(s.Pos(), w.h(h)+"(").cat(w.addrOf(l), gen(", "+w.storeSite(l)+")("), w.or(rhs[0], s.Rhs[0]), gen(")"))
	}
	// Values stored in map elements are evaluated again for their
	// identity only when the statement calls nothing: no call between
	// the two evaluations can change a local variable.
	calls := false
	for _, es := range [][]ast.Expr{s.Lhs, s.Rhs} {
		for _, e := range es {
			calls = calls || hasEffects(e)
		}
	}
	var rs []repl
	for i, l := range s.Lhs {
		val := ""
		if (kinds[i] == lMap || kinds[i] == lLoc && w.lenRecorded(l)) && len(s.Lhs) == len(s.Rhs) && rhs[i] == nil && !calls {
			val = w.valAgain(s.Rhs[i])
		}
		rs = append(rs, rn(l, w.lhsInline(l, kinds[i], "W", val)))
	}
	for i, r := range s.Rhs {
		rs = append(rs, rn(r, rhs[i]))
	}
	return w.nodeSplice(s, rs...)
}

// rhs rewrites a right-hand side; a comma-ok receive becomes Recv2.
func (w *fileRW) rhs(r ast.Expr, commaOK bool) pcs {
	if u, ok := unparen(r).(*ast.UnaryExpr); ok && u.Op == token.ARROW && commaOK && w.ins.api.has("Recv2") {
		site := w.site(u.OpPos, w.typeStr(w.typeOf(u.X)))
		return genAt(r.Pos(), rtName+".Recv2(").cat(w.load(u.X), gen(", "+site+")"))
	}
	return w.expr(r, cLoad)
}

// blockable reports whether the block form of assignment s keeps its
// meaning: every right-hand side that is not a constant can be held in a
// temporary of its own type, and a comma-ok's ok fits a bool.
func (w *fileRW) blockable(s *ast.AssignStmt, kinds []int, rhs []pcs) bool {
	effects := false
	for i, r := range s.Rhs {
		if hasEffects(r) || rhs[i] != nil {
			effects = true
		}
	}
	if !effects && !w.keyWantsTemp(s, kinds) {
		return false
	}
	if len(s.Lhs) == len(s.Rhs) {
		for _, r := range s.Rhs {
			if !w.isPure(r) && !w.typeable(r) {
				return false
			}
		}
	} else if len(s.Rhs) == 1 && len(s.Lhs) == 2 {
		if _, ok := w.typeOf(s.Rhs[0]).(*types.Tuple); !ok {
			if kinds[1] != lBlank && !isBool(w.typeOf(s.Lhs[1])) {
				return false
			}
		}
	}
	for i, l := range s.Lhs {
		if kinds[i] == lMap {
			k := unparen(l).(*ast.IndexExpr).Index
			if !w.isPure(k) && !w.typeable(k) {
				return false
			}
		}
	}
	return true
}

// keyWantsTemp reports whether a map element that s stores has a key the
// inline form records as the whole map (keyAgain: evaluating it again could
// read shared memory or do more, e.g. `m[item.key] = item`), which the block
// form holds in a temporary and records keyed. A whole-map write conflicts
// with every key, so an atomicity search would pair it with another
// goroutine's accesses of other keys (cache2go's Add between an expiry's
// lookup and delete of another key).
func (w *fileRW) keyWantsTemp(s *ast.AssignStmt, kinds []int) bool {
	if !w.keyHelpers() {
		return false
	}
	for i, l := range s.Lhs {
		if kinds[i] != lMap {
			continue
		}
		k := unparen(l).(*ast.IndexExpr).Index
		if _, ok := w.keyAgain(k); !ok && !w.isPure(k) {
			return true
		}
	}
	return false
}

// assignBlock renders `lhs... = rhs...` as a block that evaluates the
// right-hand sides into temporaries, then the addresses of the left-hand
// sides (before, if they contain calls, to keep calls in source order),
// then records each write just before it.
func (w *fileRW) assignBlock(s *ast.AssignStmt, kinds []int, rhs []pcs) pcs {
	// Addresses.
	var addrPre pcs
	stores := make([]pcs, len(s.Lhs)) // text up to " = "
	// valStore[i], when set, makes stores[i] from the text of the value
	// stored: the store records the value's identity (valIdentified), or
	// the stored slice's length (lenRecorded).
	valStore := make([]func(val string) pcs, len(s.Lhs))
	lhsCalls := false
	for _, l := range s.Lhs {
		if hasEffects(l) {
			lhsCalls = true
		}
	}
	for i, l := range s.Lhs {
		switch kinds[i] {
		case lBlank:
		case lPlain:
			stores[i] = w.origN(l)
		case lLoc:
			a := w.tmp()
			addrPre = addrPre.cat(gen(a+" := "), w.addrOf(l), gen("; "))
			h := "W"
			if w.whole(l) {
				h = "WV"
			}
			site := w.storeSite(l)
			stores[i] = gen("*" + w.h(h) + "(" + a + ", " + site + ")")
			if w.lenRecorded(l) {
				head := "*" + w.h("WL") + "(" + a + ", " + site + ")("
				valStore[i] = func(val string) pcs { return gen(head + val + ")") }
			}
		case lMap:
			ix := unparen(l).(*ast.IndexExpr)
			m := w.tmp()
			addrPre = addrPre.cat(gen(m+" := "), w.load(ix.X), gen("; "))
			key := w.load(ix.Index)
			again, keyed := w.keyAgain(ix.Index)
			if !w.isPure(ix.Index) {
				k := w.tmp()
				addrPre = addrPre.cat(gen(k+" := "), key, gen("; "))
				key = gen(k)
				again, keyed = k, w.keyHelpers() // the temporary holds the key
			}
			site := w.site(ix.Lbrack, w.typeStr(w.typeOf(ix.X)))
			if keyed {
				stores[i] = gen(w.h("MWK")+"("+m+", "+again+", "+site+")[").cat(key, gen("]"))
				if w.valIdentified(ix.X) {
					head := w.h("MWKV") + "(" + m + ", " + again + ", " + site + ")("
					valStore[i] = func(val string) pcs { return gen(head+val+")[").cat(key, gen("]")) }
				}
			} else {
				stores[i] = gen(w.h("MW")+"("+m+", "+site+")[").cat(key, gen("]"))
			}
		case lOther:
			a := w.tmp()
			addrPre = addrPre.cat(gen(a+" := "), w.addrOf(l), gen("; "))
			stores[i] = gen("*" + a)
		}
	}
	// Right-hand sides.
	vals := make([]pcs, len(s.Lhs))
	valText := make([]string, len(s.Lhs)) // the text of vals[i] when it is one line
	var names []string
	var rhsVals []pcs
	if len(s.Lhs) == len(s.Rhs) {
		for i, r := range s.Rhs {
			if w.isPure(r) {
				vals[i] = w.origN(r)
				if text := string(w.src[w.off(r.Pos()):w.off(r.End())]); !strings.ContainsAny(text, "\n\r") {
					valText[i] = text
				}
				continue
			}
			name := "_"
			if kinds[i] != lBlank {
				name = w.tmp()
				vals[i] = gen(name)
				valText[i] = name
			}
			names = append(names, name)
			rhsVals = append(rhsVals, w.or(rhs[i], r))
		}
	} else {
		for i := range s.Lhs {
			name := "_"
			if kinds[i] != lBlank {
				name = w.tmp()
				vals[i] = gen(name)
				valText[i] = name
			}
			names = append(names, name)
		}
		rhsVals = append(rhsVals, w.or(rhs[0], s.Rhs[0]))
	}
	var rhsPre pcs
	if len(rhsVals) > 0 {
		allBlank := true
		for _, n := range names {
			if n != "_" {
				allBlank = false
			}
		}
		op := " := "
		if allBlank {
			op = " = "
		}
		rhsPre = gen(strings.Join(names, ", ")+op).cat(join(rhsVals, ", "), gen("; "))
	}
	out := genAt(s.Pos(), "{ ")
	if lhsCalls {
		out = out.cat(addrPre, rhsPre)
	} else {
		out = out.cat(rhsPre, addrPre)
	}
	for i := range s.Lhs {
		if kinds[i] == lBlank {
			continue
		}
		if valStore[i] != nil && valText[i] != "" {
			// A temporary or a constant: evaluating it twice gives
			// one value and does nothing else.
			stores[i] = valStore[i](valText[i])
		}
		out = out.cat(stores[i], gen(" = "), vals[i], gen("; "))
	}
	return out.cat(gen("}"))
}

// define handles `a, b := ...`: a redeclared variable that is shared gets
// its write recorded (new variables are not reachable by anyone yet).
func (w *fileRW) define(s *ast.AssignStmt, list bool, rhs []pcs) pcs {
	var redecl []int
	for i, l := range s.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" || w.info.Defs[id] != nil {
			continue
		}
		if v, ok := w.info.Uses[id].(*types.Var); ok && w.sharedVar(v) && w.plainMemory(id) {
			redecl = append(redecl, i)
		}
	}
	plain := func() pcs {
		var rs []repl
		for i, r := range s.Rhs {
			rs = append(rs, rn(r, rhs[i]))
		}
		return w.nodeSplice(s, rs...)
	}
	if len(redecl) == 0 || !list {
		return plain()
	}
	if len(s.Lhs) == len(s.Rhs) {
		for _, r := range s.Rhs {
			if !w.isPure(r) && !w.typeable(r) {
				return plain()
			}
		}
	}
	// t1, t2 := rhs; a := t1; *W(&err) = t2
	names := make([]string, len(s.Lhs))
	for i, l := range s.Lhs {
		if l.(*ast.Ident).Name == "_" {
			names[i] = "_"
		} else {
			names[i] = w.tmp()
		}
	}
	var rvals []pcs
	var rnames []string
	if len(s.Lhs) == len(s.Rhs) {
		for i, r := range s.Rhs {
			rnames = append(rnames, names[i])
			rvals = append(rvals, w.or(rhs[i], r))
		}
	} else {
		rnames = names
		rvals = append(rvals, w.or(rhs[0], s.Rhs[0]))
	}
	out := genAt(s.Pos(), strings.Join(rnames, ", ")+" := ").cat(join(rvals, ", "), gen("; "))
	isRedecl := make(map[int]bool)
	for _, i := range redecl {
		isRedecl[i] = true
	}
	for i, l := range s.Lhs {
		if names[i] == "_" {
			continue
		}
		switch {
		case isRedecl[i]:
			out = out.cat(gen("*"+w.h("W")+"(&"), w.origN(l), gen(", "+w.storeSite(l)+") = "+names[i]+"; "))
		case w.info.Defs[l.(*ast.Ident)] == nil:
			// An unshared variable the := redeclares: a statement of
			// its own declares nothing new (go-cron's `fields, yearField,
			// err := …` with err captured).
			out = out.cat(w.origN(l), gen(" = "+names[i]+"; "))
		default:
			out = out.cat(w.origN(l), gen(" := "+names[i]+"; "))
		}
	}
	// Keep "declared and not used" errors away: the new variables are used
	// exactly as before; the temporaries are used above.
	return out
}

// rmw rewrites x op= y, x++ and x-- on a location as its read into a
// temporary, then its write:
//
//	{ a := &x; t := y; v := *R(a, s); *W(a, s) = v op t }
//
// so that the value is read between the read's and the write's turns in a
// replay, as the trace orders them: another goroutine's write scheduled
// between them is then lost, as it is in a run that interleaves them. (A
// single *RW(&x, s) op= y recorded both events before the statement read
// x at all, and the lost update never happened.) y goes into a temporary
// first, unless it is a constant, so that its reads come before x's, as
// before, and the write's turn passes only once the write is done.
func (w *fileRW) rmw(s ast.Stmt, l ast.Expr, op string, y pcs, temp bool) pcs {
	a, v := w.tmp(), w.tmp()
	site := w.storeSite(l)
	addr := gen(a+" := ").cat(w.addrOf(l), gen("; "))
	out := genAt(s.Pos(), "{ ")
	if temp {
		// gc evaluates y's calls before x's index operands, and x's
		// calls before y's.
		t := w.tmp()
		val := gen(t+" := ").cat(y, gen("; "))
		if hasEffects(l) {
			out = out.cat(addr, val)
		} else {
			out = out.cat(val, addr)
		}
		y = gen(t)
	} else {
		out = out.cat(addr)
	}
	return out.cat(gen(v+" := *"+w.h("R")+"("+a+", "+site+"); *"+w.h("W")+"("+a+", "+site+") = "+v+" "+op+" ("), y, gen(") }"))
}

// opAssign handles x op= y: a read and a write of x.
func (w *fileRW) opAssign(s *ast.AssignStmt, list bool, rhs pcs) pcs {
	l, r := s.Lhs[0], s.Rhs[0]
	kind := w.lhsKind(l)
	if kind != lLoc && kind != lMap {
		return w.nodeSplice(s, rn(l, w.lhsInline(l, kind, "RW", "")), rn(r, rhs))
	}
	if kind == lLoc && list && (w.isPure(r) || w.typeable(r)) {
		return w.rmw(s, l, strings.TrimSuffix(s.Tok.String(), "="), w.or(rhs, r), !w.isPure(r))
	}
	if list && !w.isPure(r) && (hasEffects(r) || rhs != nil) && w.typeable(r) && !(kind == lMap && hasEffects(l)) {
		t := w.tmp()
		if hasEffects(l) {
			// Calls in x keep their place before those in y.
			a := w.tmp()
			target := gen("*" + w.h("RW") + "(" + a + ", " + w.storeSite(l) + ")")
			return genAt(s.Pos(), "{ "+a+" := ").cat(w.addrOf(l), gen("; "+t+" := "), w.or(rhs, r),
				gen("; "), target, gen(" "+s.Tok.String()+" "+t+" }"))
		}
		return genAt(s.Pos(), "{ "+t+" := ").cat(w.or(rhs, r), gen("; "), w.lhsInline(l, kind, "RW", ""),
			gen(" "+s.Tok.String()+" "+t+" }"))
	}
	return w.nodeSplice(s, rn(l, w.lhsInline(l, kind, "RW", "")), rn(r, rhs))
}

func (w *fileRW) incdec(s *ast.IncDecStmt, list bool) pcs {
	kind := w.lhsKind(s.X)
	if kind == lLoc && list {
		op := "+"
		if s.Tok == token.DEC {
			op = "-"
		}
		return w.rmw(s, s.X, op, gen("1"), false)
	}
	return w.nodeSplice(s, rn(s.X, w.lhsInline(s.X, kind, "RW", "")))
}
