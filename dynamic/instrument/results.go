package instrument

import (
	"go/ast"
	"go/types"
	"strings"
)

// Named results that SSA puts on the heap (a closure captures them, or
// their address is taken) are shared memory like any other variable, with
// two accesses of their own that no expression shows: a return with values
// writes them, and every return reads them after the deferred calls ran (a
// deferred closure may have changed them). The write is recorded just
// before the return (returnWrites); the read by a deferred call that the
// function registers first, so that it runs last (resultReads).

// heapResults returns the named results of ft that live on the heap, by
// result index (nil where a result is not one).
func (w *fileRW) heapResults(ft *ast.FuncType) []*ast.Ident {
	if ft == nil || ft.Results == nil {
		return nil
	}
	var out []*ast.Ident
	any := false
	for _, f := range ft.Results.List {
		if len(f.Names) == 0 {
			out = append(out, nil)
			continue
		}
		for _, id := range f.Names {
			v, ok := w.info.Defs[id].(*types.Var)
			if ok && id.Name != "_" && w.heap[v.Pos()] && !isSyncType(v.Type()) {
				out = append(out, id)
				any = true
			} else {
				out = append(out, nil)
			}
		}
	}
	if !any {
		return nil
	}
	return out
}

// resultReads is the text inserted at the start of a function whose heap
// results are res: a deferred read of each, which runs after the
// function's own deferred calls, when the return reads them.
func (w *fileRW) resultReads(res []*ast.Ident) pcs {
	if len(res) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString(" defer func() {")
	for _, id := range res {
		if id == nil {
			continue
		}
		v := w.info.Defs[id].(*types.Var)
		b.WriteString(" " + w.h("R") + "(&" + id.Name + ", " + w.site(id.Pos(), w.describeVar(v)) + ");")
	}
	b.WriteString(" }();")
	return gen(b.String())
}

// returnWrites rewrites `return e1, e2` in a function with heap results
// so that the writes of those results are recorded after the values are
// evaluated and before the return stores them:
//
//	{ t1, t2 := e1, e2; W(&r1, s); return t1, t2 }
//
// A result whose expression is that result itself (`return a, 10` with a
// named result a) is neither read nor written: the compiler drops the
// self-assignment, and -race sees no access either. Recording one would
// put a write in the trace that the program never performs, a false race
// with any concurrent reader of the result.
//
// nil when it does not apply.
func (w *fileRW) returnWrites(s *ast.ReturnStmt, list bool) pcs {
	res := w.fn.results
	if !list || len(res) == 0 || len(s.Results) == 0 {
		return nil
	}
	self := make([]bool, len(res)) // result i is returned as itself
	var names []string
	var vals []pcs
	var ret []pcs
	if len(s.Results) == 1 && len(res) > 1 {
		if _, ok := w.typeOf(s.Results[0]).(*types.Tuple); !ok {
			return nil
		}
		for range res {
			n := w.tmp()
			names = append(names, n)
			ret = append(ret, gen(n))
		}
		vals = append(vals, w.load(s.Results[0]))
	} else {
		if len(s.Results) != len(res) {
			return nil
		}
		for i, r := range s.Results {
			if id, ok := unparen(r).(*ast.Ident); ok && res[i] != nil && w.info.Uses[id] == w.info.Defs[res[i]] {
				self[i] = true
				ret = append(ret, w.origN(r))
				continue
			}
			if w.isPure(r) {
				ret = append(ret, w.origN(r))
				continue
			}
			if !w.typeable(r) {
				return nil
			}
			n := w.tmp()
			names = append(names, n)
			vals = append(vals, w.load(r))
			ret = append(ret, gen(n))
		}
	}
	out := genAt(s.Pos(), "{ ")
	if len(names) > 0 {
		out = out.cat(gen(strings.Join(names, ", ")+" := "), join(vals, ", "), gen("; "))
	}
	for i, id := range res {
		if id == nil || self[i] {
			continue
		}
		v := w.info.Defs[id].(*types.Var)
		out = out.cat(gen(w.h("W") + "(&" + id.Name + ", " + w.site(s.Return, w.describeVar(v)) + "); "))
	}
	return out.cat(gen("return "), join(ret, ", "), gen(" }"))
}
