package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"sort"
	"strings"
)

// The rewritten file is assembled from pieces: substrings of the original
// source, which keep their original position, and generated text. Nothing
// the rewriter generates contains a newline, so in the common case every
// original line stays on its line. Where a rewrite moves original text
// (a right-hand side evaluated into a temporary before the store, the
// channel of a select hoisted before it, arguments of a go statement), the
// piece that moved is preceded by a /*line file:line:col*/ directive that
// tells the compiler where it came from: panics, test failures and
// runtime.Caller report the user's file and line.

// piece is a run of output text. pos is the original position of s[0] when
// s is original text (or generated text standing for the node at pos), and
// token.NoPos for free-standing generated text.
type piece struct {
	s   string
	pos token.Pos
}

type pcs []piece

func gen(s string) pcs { return pcs{{s: s}} }

// genAt is generated text that stands for the source at pos: it is put on
// pos's line.
func genAt(pos token.Pos, s string) pcs { return pcs{{s: s, pos: pos}} }

func (p pcs) cat(q ...pcs) pcs {
	out := p
	for _, x := range q {
		out = append(out[:len(out):len(out)], x...)
	}
	return out
}

func join(ps []pcs, sep string) pcs {
	var out pcs
	for i, p := range ps {
		if i > 0 {
			out = append(out, piece{s: sep})
		}
		out = append(out, p...)
	}
	return out
}

// repl replaces the original source [from, to) by p; from == to inserts.
// A nil p keeps the original.
type repl struct {
	from, to token.Pos
	p        pcs
}

// rn replaces node n (which may be nil) by p.
func rn(n ast.Node, p pcs) repl {
	if n == nil || isNilNode(n) {
		return repl{}
	}
	return repl{n.Pos(), n.End(), p}
}

func isNilNode(n ast.Node) bool {
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// insertAt inserts p at pos.
func insertAt(pos token.Pos, p pcs) repl { return repl{pos, pos, p} }

// orig is the original text of [from, to).
func (w *fileRW) orig(from, to token.Pos) pcs {
	if from >= to {
		return nil
	}
	return pcs{{s: string(w.src[w.off(from):w.off(to)]), pos: from}}
}

// origN is the original text of node n.
func (w *fileRW) origN(n ast.Node) pcs { return w.orig(n.Pos(), n.End()) }

// or returns p, or the original text of n if p is nil.
func (w *fileRW) or(p pcs, n ast.Node) pcs {
	if p != nil {
		return p
	}
	return w.origN(n)
}

func (w *fileRW) off(pos token.Pos) int { return w.tf.Offset(pos) }

// splice returns the original text of [from, to) with the replacements
// applied, or nil if none of them changes anything.
func (w *fileRW) splice(from, to token.Pos, rs ...repl) pcs {
	var live []repl
	for _, r := range rs {
		if r.p != nil && r.from.IsValid() {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return nil
	}
	sort.SliceStable(live, func(i, j int) bool {
		if live[i].from != live[j].from {
			return live[i].from < live[j].from
		}
		return live[i].to < live[j].to
	})
	var out pcs
	cur := from
	for _, r := range live {
		if r.from < cur {
			panic(fmt.Sprintf("overlapping replacements at %s", w.ins.fset.Position(r.from)))
		}
		out = append(out, w.orig(cur, r.from)...)
		out = append(out, r.p...)
		cur = r.to
	}
	out = append(out, w.orig(cur, to)...)
	return out
}

// nodeSplice is splice over the extent of n.
func (w *fileRW) nodeSplice(n ast.Node, rs ...repl) pcs { return w.splice(n.Pos(), n.End(), rs...) }

// render turns pieces into source text, adding line directives where the
// text would otherwise be compiled at another line than its original one.
func (w *fileRW) render(p pcs) []byte {
	var b bytes.Buffer
	vline := 1
	vfile := w.path
	for _, pc := range p {
		if pc.pos.IsValid() {
			pos := w.ins.fset.Position(pc.pos)
			if w.hasLineDirectives || pos.Line != vline || pos.Filename != vfile {
				fmt.Fprintf(&b, "/*line %s:%d:%d*/", pos.Filename, pos.Line, pos.Column)
				vline, vfile = pos.Line, pos.Filename
			}
		}
		b.WriteString(pc.s)
		vline += strings.Count(pc.s, "\n")
	}
	return b.Bytes()
}
