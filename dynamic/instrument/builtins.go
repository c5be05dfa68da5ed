package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// builtinAccess rewrites the builtins that access memory through their
// operands: copy (reads the source's elements, writes the destination's),
// append (writes the elements past the length when they fit in the
// capacity, else reads the old elements it copies into the new array; and
// reads the elements of a spread slice) and len of a map (a read of the
// map, which races with its writes as -race says). The element accesses
// are recorded by the file's helpers (see tail), at most a bounded number
// per call (rt.RRange). It returns nil for other calls.
func (w *fileRW) builtinAccess(e *ast.CallExpr, name string) pcs {
	switch name {
	case "len":
		if len(e.Args) != 1 {
			return nil
		}
		a := e.Args[0]
		if _, ok := w.coreOf(a).(*types.Map); ok {
			m := gen(w.h("MR")+"(").cat(w.load(a), gen(", "+w.site(e.Lparen, w.typeStr(w.typeOf(a)))+")"))
			return w.nodeSplice(e, rn(a, m))
		}
	case "copy":
		if len(e.Args) != 2 || !w.ins.api.has("RRangeV") || !w.ins.api.has("WRangeV") || !w.ins.api.has("WRange") {
			return nil
		}
		d, x := e.Args[0], e.Args[1]
		if _, ok := w.coreOf(d).(*types.Slice); !ok {
			return nil
		}
		sw := w.site(e.Lparen, w.elemDesc(d))
		switch xt := w.coreOf(x).(type) {
		case *types.Slice:
			sr := w.site(e.Lparen, w.elemDesc(x))
			return genAt(e.Pos(), w.h("CP")+"(").cat(w.load(d), gen(", "), w.load(x), gen(", "+sw+", "+sr+")"))
		case *types.Basic:
			if xt.Info()&types.IsString != 0 {
				return genAt(e.Pos(), w.h("CPS")+"(").cat(w.load(d), gen(", "), w.load(x), gen(", "+sw+")"))
			}
		}
	case "append":
		if len(e.Args) < 2 || !w.ins.api.has("RRangeV") || !w.ins.api.has("WRangeV") {
			return nil
		}
		s := e.Args[0]
		if _, ok := w.coreOf(s).(*types.Slice); !ok {
			return nil
		}
		if w.selfAppend[e] {
			// x = append(x, v...) still reads all of v, whatever x's
			// history: only those reads are recorded.
			if v := e.Args[1]; e.Ellipsis.IsValid() && !w.isPure(v) {
				if _, ok := w.coreOf(v).(*types.Slice); ok {
					sr := w.site(e.Lparen, w.elemDesc(v))
					return genAt(e.Pos(), "append(").cat(w.load(s), gen(", "+w.h("SR")+"("), w.load(v), gen(", "+sr+")...)"))
				}
			}
			return nil
		}
		sw := w.site(e.Lparen, w.elemDesc(s))
		if e.Ellipsis.IsValid() {
			v := e.Args[1]
			if b, ok := w.coreOf(v).(*types.Basic); ok && b.Info()&types.IsString != 0 {
				// append([]byte, string...): the string is immutable, the
				// slice's elements are written or, when it grows, read.
				return genAt(e.Pos(), w.h("APSS")+"(").cat(w.load(s), gen(", "), w.load(v), gen(", "+sw+")"))
			}
			if _, ok := w.coreOf(v).(*types.Slice); !ok || w.isPure(v) {
				return nil // append(s, nil...)
			}
			sr := w.site(e.Lparen, w.elemDesc(v))
			return genAt(e.Pos(), w.h("APS")+"(").cat(w.load(s), gen(", "), w.load(v), gen(", "+sw+", "+sr+")"))
		}
		// The values are evaluated before append writes: when evaluating
		// them has no effect, the recording may come first, in place of s.
		elem := w.coreOf(s).(*types.Slice).Elem()
		effects, exact := false, true
		var args []pcs
		for _, a := range e.Args[1:] {
			args = append(args, w.load(a))
			if hasEffects(a) {
				effects = true
			}
			if t := w.typeOf(a); !w.isPure(a) && (t == nil || !types.Identical(t, elem)) {
				exact = false
			}
		}
		if !effects {
			k := strconv.Itoa(len(args))
			return genAt(e.Pos(), "append("+w.h("app")+"(").cat(w.load(s), gen(", "+k+", "+sw+"), "), join(args, ", "), gen(")"))
		}
		if !exact {
			return nil // the helper's E is inferred from s: values of other types would not fit
		}
		return genAt(e.Pos(), w.h("AP")+"(").cat(w.load(s), gen(", "+sw+", "), join(args, ", "), gen(")"))
	}
	return nil
}

// conversionRead rewrites the operand of conversion e when the conversion
// reads the elements of a slice: string(b) of a []byte or []rune b copies
// them into the new string (the runtime's slicebytetostring and
// slicerunetostring, which -race instruments as a read of the range).
// It returns nil for other conversions.
func (w *fileRW) conversionRead(e *ast.CallExpr) pcs {
	if len(e.Args) != 1 || !w.ins.api.has("RRangeV") {
		return nil
	}
	x := e.Args[0]
	if b, ok := w.coreOf(e).(*types.Basic); !ok || b.Info()&types.IsString == 0 || w.isPure(x) {
		return nil
	}
	sl, ok := w.coreOf(x).(*types.Slice)
	if !ok {
		return nil
	}
	if b, ok := coreType(sl.Elem()).(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return nil
	}
	r := gen(w.h("SR")+"(").cat(w.load(x), gen(", "+w.site(e.Lparen, w.elemDesc(x))+")"))
	return w.nodeSplice(e, rn(x, r))
}

// markSelfAppend notes the appends of s whose result is assigned back to
// the slice they append to (x = append(x, v)). Their element accesses are
// not recorded: which elements they write in place, and which they copy
// when they grow, depends on the slice's whole history, so a schedule that
// reorders two such appends makes the replay meet other events and
// diverge; their conflicts are the read and write of x itself, which are
// recorded. An append whose result goes elsewhere (p := append(prefix, v))
// is the one whose in-place write aliases another slice's array: recorded.
func (w *fileRW) markSelfAppend(s *ast.AssignStmt) {
	if len(s.Lhs) != len(s.Rhs) || s.Tok != token.ASSIGN {
		return
	}
	for i, r := range s.Rhs {
		c, ok := unparen(r).(*ast.CallExpr)
		if !ok || len(c.Args) == 0 {
			continue
		}
		id, ok := unparen(c.Fun).(*ast.Ident)
		if !ok {
			continue
		}
		if b, ok := w.info.Uses[id].(*types.Builtin); !ok || b.Name() != "append" {
			continue
		}
		if types.ExprString(unparen(c.Args[0])) == types.ExprString(unparen(s.Lhs[i])) {
			if w.selfAppend == nil {
				w.selfAppend = make(map[*ast.CallExpr]bool)
			}
			w.selfAppend[c] = true
		}
	}
}
