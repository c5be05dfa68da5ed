package instrument

import (
	"go/ast"
	"go/types"
)

// Standard-library state. The standard library is not instrumented, so
// the fields of a bytes.Buffer or a math/rand.Rand that two goroutines
// change through its methods are invisible to the recorder, although
// -race sees them race. The types below are documented as not safe for
// concurrent use; a call of one of their methods is recorded as an access
// to the receiver (its address: the object), a read for the methods whose
// contract only reads the value and a write for the others, at the call's
// Lparen, where go/ssa puts the call. The access is recorded when the
// receiver is evaluated, before the arguments and the call: one event per
// call, whatever the call does, so that the schedule keeps its shape.
//
// Package testing's T, B, F and TB are in the table too: every method but
// those that touch nothing a finished test guards (Name, Helper, Context,
// and Parallel and Run, which only the test's own goroutine calls; Run is
// rt.RunEndAt) reads the T, and the end of the test writes it (see
// rt.TestEnd): a goroutine that logs through t after its test ended races
// with the end. Context returns a field set before the test started, and
// its cancellation at the end is how a goroutine is told the test is over:
// `case <-t.Context().Done(): return` in a goroutine the test does not wait
// for is the idiom, not a use of a finished test (open-feature/go-sdk's
// memprovider test, session 23's trial 8; -race sees no race there).

// stdType lists the methods of one type that only read it; the others
// write it. If readAll, every method reads it, except those in ignore.
type stdType struct {
	reads   []string
	readAll bool
	ignore  []string
}

// testingObj describes the T of a test: report words races on it.
const testingObj = "testing.T"

var testingT = stdType{readAll: true, ignore: []string{"Name", "Helper", "Context", "Parallel", "Run"}}

// stdState is the table, by package path and type name.
var stdState = map[string]map[string]stdType{
	"bytes": {
		"Buffer": {reads: []string{"Len", "Cap", "Available", "AvailableBuffer", "Bytes", "String"}},
	},
	"strings": {
		"Builder": {reads: []string{"Len", "Cap", "String"}},
	},
	"bufio": {
		"Reader":     {reads: []string{"Buffered", "Size"}},
		"Writer":     {reads: []string{"Available", "AvailableBuffer", "Buffered", "Size"}},
		"ReadWriter": {reads: []string{"Available", "AvailableBuffer", "Buffered", "Size"}},
		"Scanner":    {reads: []string{"Bytes", "Text", "Err"}},
	},
	"container/list": {
		"List":    {reads: []string{"Len", "Front", "Back"}},
		"Element": {reads: []string{"Next", "Prev"}},
	},
	"container/ring": {
		"Ring": {reads: []string{"Len", "Next", "Prev", "Move", "Do"}},
	},
	"math/rand":      {"Rand": {}},
	"math/rand/v2":   {"Rand": {}},
	"encoding/json":  {"Encoder": {}, "Decoder": {reads: []string{"Buffered", "InputOffset"}}},
	"encoding/csv":   {"Reader": {}, "Writer": {reads: []string{"Error"}}},
	"text/tabwriter": {"Writer": {}},
	"testing":        {"T": testingT, "B": testingT, "F": testingT, "TB": testingT},
	// container/heap is functions: heap.Push(h, x) calls h's methods, the
	// user's own, which record their accesses.
}

// stdAccess reports how a call of method m on a receiver of type t (a
// named type or a pointer to one) accesses it: ok if t is in the table and
// m touches it, write if m writes it.
func stdAccess(t types.Type, m string) (write, ok bool) {
	n := namedOf(deref(t))
	if n == nil || n.Obj().Pkg() == nil {
		return false, false
	}
	st, ok := stdState[n.Obj().Pkg().Path()][n.Obj().Name()]
	if !ok {
		return false, false
	}
	for _, x := range st.ignore {
		if x == m {
			return false, false
		}
	}
	if st.readAll {
		return false, true
	}
	for _, x := range st.reads {
		if x == m {
			return false, true
		}
	}
	return true, true
}

// stdStateFun rewrites the callee x.M of a call e of a method of a type in
// the table on a standard-library receiver x: x is evaluated into the
// helper that records the access (pecanvetW__N(&x, site).M, or for an
// interface such as testing.TB the access to its data pointer). It returns
// nil for other calls.
func (w *fileRW) stdStateFun(e *ast.CallExpr) pcs {
	if e == w.deferred || !w.ins.api.has("W") {
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
	xt := w.typeOf(sx.X)
	n := namedOf(deref(xt))
	if xt == nil || n == nil || n.Obj().Pkg() == nil || !w.uninstrumented(n.Obj().Pkg()) {
		return nil
	}
	write, ok := stdAccess(xt, sx.Sel.Name)
	if !ok {
		return nil
	}
	desc := testingObj
	if n.Obj().Pkg().Path() != "testing" {
		desc = w.describe(sx.X)
		if isPointer(xt) {
			desc = "*" + desc
		}
	}
	h := "R"
	if write {
		h = "W"
	}
	var open, x, close string
	switch {
	case isInterface(xt):
		open, close = w.h("M"+h)+"(", ")"
	case isPointer(xt):
		open, close = w.h(h)+"(", ")"
	case w.addressable(sx.X) && w.shared(sx.X):
		// A local that does not escape is no one else's.
		open, close = "(*"+w.h(h)+"(", ")"
		x = "&"
	default:
		return nil
	}
	site := w.site(e.Lparen, desc)
	var recv pcs
	if x != "" {
		recv = gen(x).cat(w.or(w.expr(sx.X, cAddr), sx.X))
	} else {
		recv = w.load(sx.X)
	}
	if open[0] == '(' {
		close += ")"
	}
	return gen(open).cat(recv, gen(", "+site+close+"."+sx.Sel.Name))
}
