package check

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strings"
	"sync"
)

// selectAlts answers predict.Options.SelectAlt from the source: whether
// the channel operation at a site ("path:line:col") is a case of a select
// with another branch that needs no other goroutine's channel operation —
// a default, or a receive from a call (time.After(d), ctx.Done()) or from
// a timer's or ticker's C. The trace records only the case a select took;
// the leak finder needs to know what else it could have done. A select
// whose other cases are channels of the program is left out of at:
// whether one of them can fire is a question of the whole program, and a
// replay that blocks there would only be pruned. stopCase names such
// cases for the finder to pair with a close the trace recorded. Files
// are parsed once each.
type selectAlts struct {
	dir   string // the package's directory: sites name files relative to its module's root
	mu    sync.Mutex
	files map[string]*fileSelects
	tests map[string]parsedTests // a directory's test files (helperTimedOut)
}

// fileSelects is what selectAlts knows of one file's selects, by line.
type fileSelects struct {
	alt      map[int]bool             // lines of cases whose select has an escape branch
	loopAlt  map[int]bool             // … one that comes back to the select (atLoop)
	sel      map[int]int              // line of a communication case → its select (an index)
	stops    map[int]map[int]bool     // select → lines of its stop cases (stopCase)
	stopChan map[int]map[chanRef]bool // select → the channels its stop cases receive from
	recvs    map[int]chanRef          // line → the channel a receive there takes from
	timeouts map[int]bool             // of a test file, lines of its selects' escape branches
}

func (s *selectAlts) at(site string) bool {
	f, line := s.lookup(site)
	return f != nil && f.alt[line]
}

// atLoop answers predict.Options.SelectLoopAlt: whether the channel
// operation at site is a case of a select with an escape branch after
// which the goroutine comes back to the select (loopsBack), one that
// does not fail the test. Such a branch strands the partner only if the
// round after it never comes, which the leak finder asks of the trace
// (the partner holds a lock the loop takes).
func (s *selectAlts) atLoop(site string) bool {
	f, line := s.lookup(site)
	return f != nil && f.loopAlt[line]
}

// stopCase answers predict.Options.StopCase: whether the channel
// operation at site sel is a case of a select that has a stop case — a
// receive from a channel of the program (not a call's result, not a
// timer's C), which fires once another goroutine closes that channel —
// at the line of site stop (stop "": any). The leak finder pairs it
// with a close the trace recorded.
func (s *selectAlts) stopCase(sel, stop string) bool {
	f, line := s.lookup(sel)
	if f == nil {
		return false
	}
	i, ok := f.sel[line]
	if !ok {
		return false
	}
	stops := f.stops[i]
	if stop == "" {
		for l := range stops {
			if l != line {
				return true
			}
		}
		return false
	}
	path, sl, ok := siteLine(stop)
	sp, _, _ := siteLine(sel)
	if !ok || path != sp || sl == line {
		return false
	}
	if stops[sl] {
		return true
	}
	// A receive elsewhere in the function from the channel a stop case
	// names: the loop's other select took the stop there in the recorded
	// run (moby#33781: the stop came while no probe ran), and would have
	// at this one.
	ref, ok := f.recvs[sl]
	return ok && f.stopChan[i][ref]
}

// chanRef names a channel in the source: the text of a receive's operand
// (a variable, a field path) in one function (an index of the file's
// functions). Two receives with one chanRef take from the same channel
// unless the function assigns the variable in between, which the replay,
// not this, would show.
type chanRef struct {
	fn   int
	expr string
}

// lookup returns the selects of the file a site names and its line.
func (s *selectAlts) lookup(site string) (*fileSelects, int) {
	path, line, ok := siteLine(site)
	if !ok {
		return nil, 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]*fileSelects{}
	}
	f, ok := s.files[path]
	if !ok {
		f = parseSelects(s.resolve(path))
		s.files[path] = f
	}
	return f, line
}

// testTimedOut returns the first place ("x_test.go:12") of a replay's
// consequence that lies in a test's select's escape branch (its
// time.After, ctx.Done or default): the test failed at its own timeout
// assertion. A goroutine left blocked then is on a path where the test
// has already failed, waiting for it: what the assertion reports, not
// a leak proved by the replay (cron's TestNoEntries failed at
// cron_test.go:92 while the replay held Stop's send at its gate). The
// static rule (failsTest) leaves out such branches when it can see they
// fail the test; this one also catches those it cannot (a helper's
// assertion, a branch that sets a flag the test fails on right there).
func (s *selectAlts) testTimedOut(consequence string) string {
	for _, place := range failPlace.FindAllString(consequence, -1) {
		path, _, _ := siteLine(place)
		if !strings.HasSuffix(path, "_test.go") {
			continue
		}
		if f, line := s.lookup(place); f != nil && f.timeouts[line] {
			return place
		}
	}
	return ""
}

// resolve finds the file a site names (resolveSite).
func (s *selectAlts) resolve(path string) string { return resolveSite(s.dir, path) }

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// parseSelects finds the file's selects: the lines of the communication
// cases that have another branch of the kinds selectAlts.at takes, and
// of every case with its select and that select's stop cases; in a test
// file, the lines of its escape branches (testTimedOut). A file that does
// not parse has none. Two kinds of escape or stop branch strand nothing
// and are left out:
//
//   - one that fails the test (t.Fatal, t.Errorf, panic …): the select is
//     the test's own timeout assertion, and a goroutine left blocked on a
//     path where the test has already failed is what the assertion
//     reports, not a bug (cron's wait(wg) helpers, workerpool's
//     TestStoppedDuringPause);
//   - one after which the goroutine comes back to the same select (the
//     select in a loop that the branch does not leave): the partner is
//     not stranded, the next iteration takes it (cron's run loop, whose
//     timer branch loops while Stop waits on c.stop).
func parseSelects(path string) *fileSelects {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	test := strings.HasSuffix(path, "_test.go")
	tvars := testingVars(f)
	out := &fileSelects{alt: map[int]bool{}, loopAlt: map[int]bool{}, sel: map[int]int{}, stops: map[int]map[int]bool{}, timeouts: map[int]bool{},
		stopChan: map[int]map[chanRef]bool{}, recvs: map[int]chanRef{}}
	var stack []ast.Node
	fns := map[ast.Node]int{} // a function → its index
	// ref returns the chanRef of a receive's operand ch in the innermost
	// function on stack, or false if ch is no variable or field path.
	ref := func(ch ast.Expr) (chanRef, bool) {
		for x := ch; ; {
			switch y := x.(type) {
			case *ast.Ident:
			case *ast.SelectorExpr:
				x = y.X
				continue
			default:
				return chanRef{}, false
			}
			break
		}
		for i := len(stack) - 1; i >= 0; i-- {
			switch stack[i].(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				fn, ok := fns[stack[i]]
				if !ok {
					fn = len(fns)
					fns[stack[i]] = fn
				}
				return chanRef{fn, types.ExprString(ch)}, true
			}
		}
		return chanRef{}, false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			if r, ok := ref(ast.Unparen(u.X)); ok {
				out.recvs[fset.Position(u.X.Pos()).Line] = r
			}
		}
		sel, ok := n.(*ast.SelectStmt)
		if !ok {
			return true
		}
		idx := len(out.stops)
		stops := map[int]bool{}
		out.stops[idx] = stops
		chans := map[chanRef]bool{}
		out.stopChan[idx] = chans
		var comms []*ast.CommClause
		for _, c := range sel.Body.List {
			if cc, ok := c.(*ast.CommClause); ok {
				comms = append(comms, cc)
			}
		}
		strands := func(o *ast.CommClause) bool { return !failsTest(o.Body, tvars) && !loopsBack(stack, o) }
		for _, cc := range comms {
			if test && escape(cc) {
				for l := fset.Position(cc.Colon).Line; l <= fset.Position(cc.End()).Line; l++ {
					out.timeouts[l] = true
				}
			}
			if cc.Comm == nil {
				continue
			}
			// A case's operation is recorded at its channel operand's
			// line; an assignment may span two.
			lines := []int{fset.Position(cc.Comm.Pos()).Line, fset.Position(cc.Comm.End()).Line}
			for _, l := range lines {
				out.sel[l] = idx
				if stopRecv(cc) && strands(cc) {
					stops[l] = true
					if r, ok := ref(recvOperand(cc)); ok {
						chans[r] = true
					}
				}
			}
			for _, o := range comms {
				if o == cc || !escape(o) || failsTest(o.Body, tvars) {
					continue
				}
				m := out.loopAlt
				if !loopsBack(stack, o) {
					m = out.alt
				}
				for _, l := range lines {
					m[l] = true
				}
			}
		}
		return true
	})
	return out
}

// recvOperand returns the channel operand of case c if it receives.
func recvOperand(c *ast.CommClause) ast.Expr {
	var x ast.Expr
	switch s := c.Comm.(type) {
	case *ast.ExprStmt:
		x = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			x = s.Rhs[0]
		}
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	return ast.Unparen(u.X)
}

// stopRecv reports whether case c receives from a channel of the
// program: neither a call's result nor a timer's or ticker's C (those are
// escape's).
func stopRecv(c *ast.CommClause) bool {
	if c.Comm == nil {
		return false
	}
	ch := recvOperand(c)
	if ch == nil {
		return false
	}
	switch ch := ch.(type) {
	case *ast.CallExpr:
		return false
	case *ast.SelectorExpr:
		return ch.Sel.Name != "C"
	}
	return true
}

// escape reports whether case c can fire with no other goroutine of the
// program acting on a channel: default, or a receive from a call's
// result or from a field C (a timer, a ticker).
func escape(c *ast.CommClause) bool {
	if c.Comm == nil {
		return true
	}
	switch ch := recvOperand(c).(type) {
	case *ast.CallExpr:
		return true
	case *ast.SelectorExpr:
		return ch.Sel.Name == "C"
	}
	return false
}

// testingVars returns the names the file declares (parameters, variables)
// of the testing package's types: *testing.T, *testing.B, *testing.F,
// testing.TB. The parse has no types: a name is taken for a testing
// value in the whole file if it is declared so anywhere in it, which is
// how tests name them (t, b, tb).
func testingVars(f *ast.File) map[string]bool {
	out := map[string]bool{}
	isTesting := func(x ast.Expr) bool {
		if s, ok := x.(*ast.StarExpr); ok {
			x = s.X
		}
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "testing" && (sel.Sel.Name == "T" || sel.Sel.Name == "B" || sel.Sel.Name == "F" || sel.Sel.Name == "TB")
	}
	ast.Inspect(f, func(n ast.Node) bool {
		var names []*ast.Ident
		var typ ast.Expr
		switch d := n.(type) {
		case *ast.Field:
			names, typ = d.Names, d.Type
		case *ast.ValueSpec:
			names, typ = d.Names, d.Type
		}
		if typ != nil && isTesting(typ) {
			for _, id := range names {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

// failMethods are the testing methods that mark the test failed.
var failMethods = map[string]bool{"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true}

// failsTest reports whether a branch's statements fail the test: a call
// of a failing method on a testing value (tvars) or a panic, outside the
// function literals they may define (which run who knows when).
func failsTest(body []ast.Stmt, tvars map[string]bool) bool {
	found := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if found {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fn := ast.Unparen(call.Fun).(type) {
			case *ast.Ident:
				found = fn.Name == "panic"
			case *ast.SelectorExpr:
				id, ok := ast.Unparen(fn.X).(*ast.Ident)
				found = ok && tvars[id.Name] && failMethods[fn.Sel.Name]
			}
			return !found
		})
	}
	return found
}

// loopsBack reports whether the goroutine, after branch c of the select
// on top of stack (its enclosing nodes, outermost first), surely comes
// back to the select: the select lies in a loop without a condition
// (for { … }) of its function, and neither the branch nor the rest of
// that loop's body (the select's other branches aside) has a way out of
// it: a return, a goto, a panic, a labeled break or continue, or an
// unlabeled break that ends that loop. A loop with a condition or a
// range may end after the branch: it does not count.
func loopsBack(stack []ast.Node, c *ast.CommClause) bool {
	sel := stack[len(stack)-1].(*ast.SelectStmt)
	for i := len(stack) - 2; i >= 0; i-- {
		switch l := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.ForStmt:
			if l.Cond == nil && !leaves(l, sel, c) {
				return true
			}
		}
	}
	return false
}

// leaves reports whether loop's body, skipping the branches of sel other
// than c, has a statement that may take the goroutine out of the loop.
func leaves(loop *ast.ForStmt, sel *ast.SelectStmt, c *ast.CommClause) bool {
	out := false
	// depth counts the breakable statements (for, range, switch, select)
	// between loop and a node: an unlabeled break at depth 0 ends loop.
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		ast.Inspect(n, func(m ast.Node) bool {
			if out || m == nil || m == n {
				return !out
			}
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CommClause:
				if x != c && containsClause(sel, x) {
					return false // another branch of the select
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				walk(x, depth+1)
				return false
			case *ast.ReturnStmt:
				out = true
			case *ast.BranchStmt:
				switch {
				case x.Tok == token.GOTO, x.Label != nil && x.Tok != token.FALLTHROUGH:
					out = true
				case x.Tok == token.BREAK && depth == 0:
					out = true
				}
			case *ast.CallExpr:
				if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "panic" {
					out = true
				}
			}
			return !out
		})
	}
	walk(loop.Body, 0)
	return out
}

func containsClause(sel *ast.SelectStmt, c *ast.CommClause) bool {
	for _, s := range sel.Body.List {
		if s == c {
			return true
		}
	}
	return false
}
