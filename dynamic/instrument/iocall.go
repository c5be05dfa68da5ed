package instrument

import (
	"go/ast"
	"go/types"
	"strings"
)

// Readers whose code is not instrumented (the standard library's files,
// buffers; any io.Reader called through an interface) write the caller's
// slice where the recorder cannot see it. Their contracts say which bytes:
// Read(p) and ReadAt(p, off) write p[:n], n the count they return. ioCall
// records those writes when the call returns (rt.WRangeV; at most 256 per
// call), as part of the call: after whatever synchronization the call
// performed before touching the slice (a pipe's Read waits for a Write).
// A method of a type of the instrumented module records its own accesses
// and is left alone; one called through an interface may be such a method,
// and then records the bytes twice, which changes nothing.

// ioMethods maps the method names to their helper and whether the slice is
// written (Read, ReadAt) or read.
var ioMethods = map[string]struct {
	helper string
	write  bool
	offset bool
}{
	"Read":   {"IORD", true, false},
	"ReadAt": {"IORA", true, true},
	"Write":  {"IOWR", false, false},
}

// Write(p) reads p[:n] by the same contracts; ioCall records one read, of
// p[0], when n > 0 (rt.RRangeV of one value): a Write of n bytes read the
// first. Not all n: how many bytes a Write takes depends on values (a
// buffered writer's flush, w.out.Write(w.buf[:w.n]), writes what is
// buffered), so a schedule that changes them changed the number of events
// and diverged, and the subject bufwriter lost its races on the count
// (Writer.n). One event per call keeps the schedule's shape; a race on the
// other bytes alone is missed. go test -race's TestRaceIssue5567 and
// TestRaceIssue51618 (a hash.Hash's Write reading a buffer the producer
// refills) and the subject iowrite need it.

// ioCall rewrites x.Read(p), x.ReadAt(p, off) and x.Write(p) (with the io
// signatures) into a call of the file's helper that makes the call and
// records the bytes; it returns nil for other calls.
func (w *fileRW) ioCall(e *ast.CallExpr) pcs {
	if e == w.deferred || e.Ellipsis.IsValid() || !w.ins.api.has("WRangeV") {
		return nil
	}
	sx, ok := unparen(e.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	sel := w.info.Selections[sx]
	if sel == nil || sel.Kind() != types.MethodVal {
		return nil
	}
	m, ok := ioMethods[sx.Sel.Name]
	if !ok {
		return nil
	}
	fn, ok := sel.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || !w.ioSignature(fn, m.offset) {
		return nil
	}
	if !isInterface(sig(fn).Recv().Type()) && !w.uninstrumented(fn.Pkg()) {
		return nil
	}
	if len(e.Args) != sig(fn).Params().Len() || w.isPure(e.Args[0]) {
		return nil // r.Read(nil): nothing to record, and no type to infer
	}
	site := w.site(e.Lparen, w.elemDesc(e.Args[0]))
	fun := w.stdStateFun(e) // a bytes.Buffer's Write also writes the buffer
	if fun == nil {
		fun = w.or(w.callee(e.Fun), e.Fun)
	}
	args := []pcs{fun}
	for _, a := range e.Args {
		args = append(args, w.load(a))
	}
	return genAt(e.Pos(), w.h(m.helper)+"(").cat(join(args, ", "), gen(", "+site+")"))
}

func sig(fn *types.Func) *types.Signature { return fn.Type().(*types.Signature) }

// ioSignature reports whether fn is func(p []byte) (int, error), or with
// offset func(p []byte, off int64) (int, error).
func (w *fileRW) ioSignature(fn *types.Func, offset bool) bool {
	s, ok := fn.Type().(*types.Signature)
	if !ok || s.Recv() == nil || s.Variadic() || s.Results().Len() != 2 {
		return false
	}
	n := 1
	if offset {
		n = 2
	}
	if s.Params().Len() != n {
		return false
	}
	if sl, ok := s.Params().At(0).Type().Underlying().(*types.Slice); !ok || !types.Identical(sl.Elem(), types.Typ[types.Byte]) {
		return false
	}
	if offset && !types.Identical(s.Params().At(1).Type(), types.Typ[types.Int64]) {
		return false
	}
	return types.Identical(s.Results().At(0).Type(), types.Typ[types.Int]) &&
		types.Identical(s.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}

// uninstrumented reports whether package p's code is not instrumented: a
// package of the standard library (or of another module; only the main
// module's packages are instrumented).
func (w *fileRW) uninstrumented(p *types.Package) bool {
	mod := ""
	if w.u.pkg.Module != nil {
		mod = w.u.pkg.Module.Path
	}
	path := p.Path()
	if mod != "" && (path == mod || strings.HasPrefix(path, mod+"/")) {
		return false
	}
	return p != w.pkg
}
