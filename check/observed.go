package check

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// Observed leaks: a leak the recorded run itself shows (goleak's finding).
//
// The recorder writes, after a test's events, the channel operations that
// goroutines the test started were blocked in when it ended
// (trace.Trace.Blocked). A goroutine blocked at the end of a test is not
// stuck by that alone: a worker or daemon waiting for its next request
// on a channel that a package-level variable or a long-lived value keeps
// reachable is at rest, not leaked, and a test is free to leave it so.
// What tells a leak apart is that nothing live can ever complete the
// operation, which the source shows for one shape, the go-with-timeout
// idiom (abandoned): the channel is a variable local to the function F
// that started the goroutine (a make in F, never stored, passed, returned
// or closed), the goroutine's own operations on it are of the blocked
// direction, and F's operations of the other direction are all cases of
// selects with an escape branch (a timeout, ctx.Done(), default) that
// does not fail the test and does not come back to the select. Once F has
// returned through that branch, the blocked goroutine holds the only
// reference to the channel. A goroutine blocked on a timer, I/O or a
// context is in no channel operation rt performs and is never noted.
//
// Such a candidate is reported only if the recorded test passed and a
// replay of the recorded order, ending with the blocked operation,
// proves it (rt's leakProof): the test returns with the goroutine
// blocked there. The recorded run's timing decides whether the run shows
// the leak; when it does not, the send and its receive are matched in the
// trace and the leak finder (predict.Leaks) predicts the same leak, so
// the site is reported either way.

// observedLeak is the pattern of an observed leak: one event, the blocked
// operation. It is check's, not the pattern language's (a pattern there
// has two events or more): -pecan.patterns turns it on with the leak
// set's select-branch pattern.
var observedLeak = &pattern.Pattern{Kind: "leak", Name: "observed", Leak: true, Observed: true,
	T: []int{0}, SV: []int{0}, AR: []int{0}, AT: []pattern.Access{pattern.W},
	TNames: []string{"t1"}, SVNames: []string{"s1"}, ARNames: []string{"u1"}, Pos: "check"}

// observedOn reports whether pats asks for leaks: observed leaks come
// with the select-branch leak pattern.
func observedOn(pats []*pattern.Pattern) bool {
	for _, p := range pats {
		if p.Leak && !p.Stolen && !p.Observed {
			return true
		}
	}
	return false
}

// observed returns the predictions of the observed leaks of test rt's
// trace tr: its blocked operations that abandoned accepts, each with the
// schedule of tr's events in their order and then the operation. Their
// schedules are written from a copy of tr that ends with the operation,
// into dir.
func (c *testCheck) observed(tr *trace.Trace, rt record.Test, dir string, pats []*pattern.Pattern) []prediction {
	if len(tr.Blocked) == 0 || !rt.Passed || rt.Truncated != "" || !observedOn(pats) || c.selAlts == nil {
		return nil
	}
	var out []prediction
	var facts *blockedFacts
	for k, ev := range tr.Blocked {
		if ev.Site < 0 || int(ev.Site) >= len(tr.Sites) {
			continue
		}
		site := tr.Sites[ev.Site]
		esc, ok := c.selAlts.abandoned(site, ev.Op)
		var waits, why string
		if !ok {
			if facts == nil {
				facts = newBlockedFacts(tr)
			}
			waits, why, ok = c.selAlts.stuck(facts, k)
		}
		if !ok {
			continue
		}
		ev.Flags &^= trace.FlagBlocked
		n := int32(len(tr.Events))
		ext := &trace.Trace{Tables: tr.Tables, Events: append(slices.Clip(tr.Events), ev)}
		a := predict.Anomaly{Pattern: observedLeak, Events: []int32{n}, Sites: []string{site},
			Key:      pattern.Key(observedLeak, []string{site}),
			Schedule: schedule.Schedule{Prefix: n, Tail: []int32{n}}, Returned: esc, Waits: waits, Stuck: why}
		if c.seen[a.Key] {
			c.found++
			c.predicted++
			c.undiverged++
			continue
		}
		if c.pruned[a.Key] {
			continue
		}
		st := trace.NewScheduleText(ext, filepath.Join(dir, fmt.Sprintf("observed%d.steps", k+1)))
		p, err := newPrediction(st, nil, a, filepath.Join(dir, fmt.Sprintf("observed%d.schedule", k+1)))
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			c.rep.addNote(note.Predict, c.pkg, c.test, "%v", err)
			continue
		}
		out = append(out, p)
		c.predicted++
	}
	c.opt.progress("check: %s %s: %d goroutines blocked at the test's end, %d of them abandoned (observed leaks to replay)", c.pkg, c.test, len(tr.Blocked), len(out))
	return out
}

// abandoned reports whether the channel operation op at site, where a
// goroutine was blocked when its test ended, is one nothing live can
// complete (see above), and returns the site ("path:line") of the escape
// branch its function returned through.
func (s *selectAlts) abandoned(site string, op trace.Op) (string, bool) {
	path, line, ok := siteLine(site)
	if !ok || (op != trace.Send && op != trace.Recv) {
		return "", false
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, s.resolve(path), nil, 0)
	if err != nil {
		return "", false
	}
	lineOf := func(n ast.Node) int { return fset.Position(n.Pos()).Line }
	tvars := testingVars(f)
	within := func(n ast.Node, p token.Pos) bool { return n.Pos() <= p && p < n.End() }
	// The operation: a send statement, or a receive outside a select
	// (rt's Recv performs it), at line, in a function literal that a go
	// statement calls, on a variable declared in the function around it.
	var ch *ast.Ident
	var lit, outer ast.Node
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if ch != nil {
			return true
		}
		var x ast.Expr
		switch n := n.(type) {
		case *ast.SendStmt:
			if op == trace.Send && lineOf(n) == line {
				x = n.Chan
			}
		case *ast.UnaryExpr:
			if op == trace.Recv && n.Op == token.ARROW && lineOf(n) == line {
				x = n.X
			}
		}
		id, isID := ast.Unparen(x).(*ast.Ident)
		if !isID || id.Obj == nil || id.Obj.Kind != ast.Var {
			return true
		}
		var l, o ast.Node
	walk:
		for i := len(stack) - 2; i >= 0; i-- {
			switch fn := stack[i].(type) {
			case *ast.CommClause:
				if l == nil {
					return true // a select's case: not rt's Recv
				}
			case *ast.FuncLit:
				if l != nil {
					o = fn
					break walk
				}
				if i < 2 {
					return true
				}
				call, okc := stack[i-1].(*ast.CallExpr)
				if _, okg := stack[i-2].(*ast.GoStmt); !okc || !okg || call.Fun != fn {
					return true
				}
				l = fn
			case *ast.FuncDecl:
				if l == nil {
					return true
				}
				o = fn
				break walk
			}
		}
		if l == nil || o == nil {
			return true
		}
		ch, lit, outer = id, l, o
		return true
	})
	if ch == nil {
		return "", false
	}
	obj := ch.Obj
	decl := obj.Pos()
	if within(lit, decl) || !within(outer, decl) || !madeHere(obj) {
		return "", false
	}
	// Every use of the channel in outer.
	esc := ""
	ok = true
	stack = stack[:0]
	ast.Inspect(outer, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !ok || !isID || id.Obj != obj || id.Pos() == decl || len(stack) < 2 {
			return true
		}
		parent := stack[len(stack)-2]
		if within(lit, id.Pos()) {
			// The goroutine's own: operations of the blocked direction.
			switch p := parent.(type) {
			case *ast.SendStmt:
				ok = op == trace.Send && p.Chan == id
			case *ast.UnaryExpr:
				ok = op == trace.Recv && p.Op == token.ARROW
			default:
				ok = false
			}
			return true
		}
		// outer's: the other direction, as a select's case that can
		// escape for good.
		var comm ast.Stmt // the case's statement
		switch p := parent.(type) {
		case *ast.SendStmt:
			if op == trace.Recv && p.Chan == id {
				comm = p
			}
		case *ast.UnaryExpr:
			if op == trace.Send && p.Op == token.ARROW && len(stack) >= 3 {
				if st, isStmt := stack[len(stack)-3].(ast.Stmt); isStmt {
					comm = st
				}
			}
		}
		l, found := 0, false
		if comm != nil {
			l, found = escapeOf(fset, stack, comm, decl, tvars)
		}
		if !found {
			ok = false
			return true
		}
		if esc == "" {
			esc = fmt.Sprintf("%s:%d", path, l)
		}
		return true
	})
	if !ok || esc == "" {
		return "", false
	}
	return esc, true
}

// madeHere reports whether obj is declared by a make(chan …): "ch :=
// make(…)" or "var ch = make(…)".
func madeHere(obj *ast.Object) bool {
	var rhs []ast.Expr
	var names []ast.Expr
	switch d := obj.Decl.(type) {
	case *ast.AssignStmt:
		rhs, names = d.Rhs, d.Lhs
	case *ast.ValueSpec:
		rhs = d.Values
		for _, id := range d.Names {
			names = append(names, id)
		}
	default:
		return false
	}
	if len(rhs) != len(names) {
		return false
	}
	for i, x := range names {
		if id, ok := x.(*ast.Ident); !ok || id.Obj != obj {
			continue
		}
		call, ok := ast.Unparen(rhs[i]).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := call.Fun.(*ast.Ident)
		if !ok || fn.Name != "make" || len(call.Args) == 0 {
			return false
		}
		_, isChan := call.Args[0].(*ast.ChanType)
		return isChan
	}
	return false
}

// escapeOf: comm, on stack (the enclosing nodes, outermost first), is
// meant to be the statement of a select's case. The select must have
// another case that escapes (selectalt's escape), does not fail the test
// (failsTest) and leaves the select for good: no loop of the function
// encloses the select unless it encloses the channel's declaration at
// decl too (each round then has a channel of its own). It returns the
// line of that escape case.
func escapeOf(fset *token.FileSet, stack []ast.Node, comm ast.Stmt, decl token.Pos, tvars map[string]bool) (int, bool) {
	k := slices.Index(stack, ast.Node(comm))
	if k < 3 {
		return 0, false
	}
	cc, ok := stack[k-1].(*ast.CommClause)
	if !ok || cc.Comm != comm {
		return 0, false
	}
	sel, ok := stack[k-3].(*ast.SelectStmt) // the case's parent is the select's body
	if !ok {
		return 0, false
	}
	for i := k - 4; i >= 0; i-- {
		var body *ast.BlockStmt
		switch l := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			i = -1
			continue
		case *ast.ForStmt:
			body = l.Body
		case *ast.RangeStmt:
			body = l.Body
		default:
			continue
		}
		if !(body.Pos() <= decl && decl < body.End()) {
			return 0, false
		}
	}
	for _, c := range sel.Body.List {
		o, ok := c.(*ast.CommClause)
		if !ok || o == cc || !escape(o) || failsTest(o.Body, tvars) {
			continue
		}
		return fset.Position(o.Pos()).Line, true
	}
	return 0, false
}

// leadObserved makes an observed leak the lead of the predicted leaks of
// its package that strand the same operation: one bug, one report. A
// test whose recorded run sometimes shows the leak and sometimes not
// (its perturbed recordings) gives both; the run's own evidence leads.
func leadObserved(fs []Finding) {
	obs := map[string]int{} // the blocked operations' sites → their observed leak
	for i := range fs {
		if f := &fs[i]; f.Leak() && f.Anomaly.Pattern.Observed {
			obs[f.Package+" "+f.Anomaly.Sites[0]] = i
		}
	}
	if len(obs) == 0 {
		return
	}
	for i := range fs {
		f := &fs[i]
		if p := f.Anomaly.Pattern; p.Leak && !p.Observed && len(f.Anomaly.Sites) == 2 && f.Lead == "" {
			if j, ok := obs[f.Package+" "+f.Anomaly.Sites[1]]; ok {
				f.Lead = f.Anomaly.Sites[1]
				fs[j].Grouped++
			}
		}
	}
}
