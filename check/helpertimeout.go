package check

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict"
)

// A test helper's timeout (labstack/echo's waitForServerStart): a
// function of a test file whose select, besides the case the leak's
// partner needed, has an escape branch (ctx.Done(), time.After …) that
// returns an error, and whose caller fails the test on that error
// (assert.NoError(t, err)). A replay that takes the escape branch strands
// the partner, and the test fails at the caller's assertion — outside the
// select, so testTimedOut does not see it. The goroutine left blocked is
// then on a path where the test has already failed at its own timeout:
// what the assertion reports, not a leak. helperTimedOut asks for all of:
//
//   - the select (the leak's first site) is in a function declared in a
//     test file, and one of its escape branches returns at once a last
//     result whose error text the source names (ctx.Err(),
//     context.DeadlineExceeded, errors.New("…"), fmt.Errorf("…")), or
//     ends by assigning such an error to a variable that the statement
//     right after the select returns as its last result, the branch
//     leaving by no other way (r3labs/sse's wait: `err =
//     errors.New("timeout")` in the branch, `return msg, err` after);
//   - the replay's test failed at a place of a test file of the same
//     directory where a call passes a testing value (t) and a variable
//     that an earlier assignment in the same function took, last, from
//     the last result of a call of that helper (or of a function
//     returning the helper's call);
//   - the failure's message there holds that error text: the assertion
//     saw the timeout's error, not another one.
//
// A leak whose stranded operation the recorded, passing run also left
// blocked (prediction.endBlocked) is not excused: it strands a goroutine
// on a passing path too (echo's errCh sends after a started server
// stops).

// blockedAtEnd reports whether the partner of leak a (its second site)
// is the site of an operation a goroutine was blocked in when the
// recorded test of tr ended.
func blockedAtEnd(tr *trace.Trace, a predict.Anomaly) bool {
	if a.Pattern == nil || !a.Pattern.Leak || len(a.Sites) != 2 {
		return false
	}
	for _, b := range tr.Blocked {
		if b.Site >= 0 && int(b.Site) < len(tr.Sites) && tr.Sites[b.Site] == a.Sites[1] {
			return true
		}
	}
	return false
}

// helperTimedOut returns the failure place ("x_test.go:12") at which the
// test failed on the timeout error that the helper whose select holds
// site sel returned (see above), or "".
func (s *selectAlts) helperTimedOut(sel, consequence string) string {
	path, line, ok := siteLine(sel)
	if !ok || !strings.HasSuffix(path, "_test.go") {
		return ""
	}
	file := s.resolve(path)
	fset, files := s.testFiles(filepath.Dir(file))
	f := files[file]
	if f == nil {
		return ""
	}
	name, texts := timeoutHelper(fset, f, line)
	if name == "" {
		return ""
	}
	helpers := map[string]bool{name: true}
	for grew := true; grew; {
		grew = false
		for _, g := range files {
			for _, d := range g.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || fd.Body == nil || helpers[fd.Name.Name] || !returnsCallOf(fd.Body, helpers) {
					continue
				}
				helpers[fd.Name.Name] = true
				grew = true
			}
		}
	}
	places := failPlace.FindAllStringIndex(consequence, -1)
	for i, loc := range places {
		place := consequence[loc[0]:loc[1]]
		pp, pl, ok := siteLine(place)
		if !ok || !strings.HasSuffix(pp, "_test.go") {
			continue
		}
		end := len(consequence)
		if i+1 < len(places) {
			end = places[i+1][0]
		}
		msg := consequence[loc[1]:end]
		if !containsAny(msg, texts) {
			continue
		}
		g := files[s.resolve(pp)]
		if g != nil && assertsHelperResult(fset, g, pl, helpers) {
			return place
		}
	}
	return ""
}

// testFiles returns the parsed test files of dir, by path, parsed once
// (a package's leaks ask for the same directory replay after replay);
// the files are only read.
func (s *selectAlts) testFiles(dir string) (*token.FileSet, map[string]*ast.File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tests[dir]; ok {
		return t.fset, t.files
	}
	t := parsedTests{fset: token.NewFileSet(), files: map[string]*ast.File{}}
	matches, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, m := range matches {
		if f, err := parser.ParseFile(t.fset, m, nil, parser.SkipObjectResolution); err == nil {
			t.files[m] = f
		}
	}
	if s.tests == nil {
		s.tests = map[string]parsedTests{}
	}
	s.tests[dir] = t
	return t.fset, t.files
}

// parsedTests are a directory's test files (selectAlts.testFiles).
type parsedTests struct {
	fset  *token.FileSet
	files map[string]*ast.File
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if x != "" && strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// timeoutHelper finds the function declared in f whose select has a case
// at line and an escape branch that returns at once; it returns the
// function's name and the texts the error that branch returns shows
// (errorTexts), or "" if there is none.
func timeoutHelper(fset *token.FileSet, f *ast.File, line int) (string, []string) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || fset.Position(fd.Pos()).Line > line || fset.Position(fd.End()).Line < line {
			continue
		}
		var texts []string
		next := nextStmts(fd.Body)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false // another function's select
			}
			sel, ok := n.(*ast.SelectStmt)
			if !ok || texts != nil {
				return texts == nil
			}
			has := false
			for _, c := range sel.Body.List {
				if cc, ok := c.(*ast.CommClause); ok && cc.Comm != nil &&
					(fset.Position(cc.Comm.Pos()).Line == line || fset.Position(cc.Comm.End()).Line == line) {
					has = true
				}
			}
			if !has {
				return true
			}
			for _, c := range sel.Body.List {
				cc, ok := c.(*ast.CommClause)
				if !ok || !escape(cc) || len(cc.Body) == 0 {
					continue
				}
				if r, ok := cc.Body[0].(*ast.ReturnStmt); ok && len(r.Results) > 0 {
					texts = append(texts, errorTexts(r.Results[len(r.Results)-1])...)
				} else if id, e := fallsOutWith(cc); id != "" && returnsLast(next[sel], id) {
					texts = append(texts, errorTexts(e)...)
				}
			}
			return false
		})
		if len(texts) > 0 {
			return fd.Name.Name, texts
		}
	}
	return "", nil
}

// nextStmts maps each select of body (not in a function literal) to the
// statement that follows it in its statement list, if any.
func nextStmts(body *ast.BlockStmt) map[*ast.SelectStmt]ast.Stmt {
	next := map[*ast.SelectStmt]ast.Stmt{}
	ast.Inspect(body, func(n ast.Node) bool {
		var list []ast.Stmt
		switch b := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		}
		for i, st := range list {
			if sel, ok := st.(*ast.SelectStmt); ok && i+1 < len(list) {
				next[sel] = list[i+1]
			}
		}
		return true
	})
	return next
}

// fallsOutWith returns the variable and the value of the assignment
// (v = x, not :=) that ends select branch c's body, when nothing in the
// body leaves it another way (no return, break, continue, goto, panic or
// labeled statement) and neither the body nor the case declares a v of
// its own: control then goes on after the select with the v declared
// outside it holding x.
func fallsOutWith(c *ast.CommClause) (string, ast.Expr) {
	body := c.Body
	if len(body) == 0 {
		return "", nil
	}
	as, ok := body[len(body)-1].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return "", nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok || id.Name == "_" {
		return "", nil
	}
	reject := false
	stmts := body
	if c.Comm != nil {
		stmts = append([]ast.Stmt{c.Comm}, body...)
	}
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt, *ast.BranchStmt, *ast.LabeledStmt:
				reject = true
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if l, ok := l.(*ast.Ident); ok && x.Tok == token.DEFINE && l.Name == id.Name {
						reject = true // another v
					}
				}
			case *ast.ValueSpec:
				for _, n := range x.Names {
					if n.Name == id.Name {
						reject = true // another v
					}
				}
			case *ast.CallExpr:
				if f, ok := x.Fun.(*ast.Ident); ok && f.Name == "panic" {
					reject = true
				}
			}
			return !reject
		})
	}
	if reject {
		return "", nil
	}
	return id.Name, as.Rhs[0]
}

// returnsLast reports whether st is a return statement whose last result
// is the variable named v.
func returnsLast(st ast.Stmt, v string) bool {
	r, ok := st.(*ast.ReturnStmt)
	if !ok || len(r.Results) == 0 {
		return false
	}
	id, ok := r.Results[len(r.Results)-1].(*ast.Ident)
	return ok && id.Name == v
}

// errorTexts returns what the error x evaluates to shows in its message,
// for the forms whose message the source names: a context's Err() or
// context.DeadlineExceeded / Canceled, errors.New or fmt.Errorf of a
// literal (the format's text before its first verb).
func errorTexts(x ast.Expr) []string {
	call, isCall := ast.Unparen(x).(*ast.CallExpr)
	if !isCall {
		if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok {
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "context" {
				switch sel.Sel.Name {
				case "DeadlineExceeded":
					return []string{"context deadline exceeded"}
				case "Canceled":
					return []string{"context canceled"}
				}
			}
		}
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if sel.Sel.Name == "Err" && len(call.Args) == 0 {
		return []string{"context deadline exceeded", "context canceled"}
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || len(call.Args) == 0 || !(pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf") {
		return nil
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return nil
	}
	text, err := strconv.Unquote(lit.Value)
	if err != nil {
		return nil
	}
	if i := strings.IndexByte(text, '%'); i >= 0 {
		text = text[:i]
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return []string{text}
}

// returnsCallOf reports whether body has a return statement whose only
// result is a call of one of the functions helpers names (a wrapper that
// hands the helper's results on: echo's startOnRandomPort).
func returnsCallOf(body *ast.BlockStmt, helpers map[string]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
			found = callOf(r.Results[0], helpers)
		}
		return !found
	})
	return found
}

// callOf reports whether x calls a function that helpers names.
func callOf(x ast.Expr, helpers map[string]bool) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	return ok && helpers[id.Name]
}

// assertsHelperResult reports whether line of f holds an assertion on a
// helper's error: a call that passes a testing value (testingVars) and
// a variable that an assignment earlier in the innermost function around
// the line took, last, from a call of one of helpers (its last result).
func assertsHelperResult(fset *token.FileSet, f *ast.File, line int, helpers map[string]bool) bool {
	tvars := testingVars(f)
	// The innermost function whose body spans line.
	var body *ast.BlockStmt
	ast.Inspect(f, func(n ast.Node) bool {
		var b *ast.BlockStmt
		switch fn := n.(type) {
		case *ast.FuncDecl:
			b = fn.Body
		case *ast.FuncLit:
			b = fn.Body
		}
		if b != nil && fset.Position(b.Pos()).Line <= line && line <= fset.Position(b.End()).Line {
			body = b
		}
		return true
	})
	if body == nil {
		return false
	}
	// The variables that hold the helper's error result at line: assigned
	// last before it in body (not in a function literal within it) from
	// a call of a helper.
	vars := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || fset.Position(as.End()).Line >= line {
			return true
		}
		// In source order: a later assignment of another value
		// replaces the helper's.
		// Only the last result is the error the escape branch returns.
		h := len(as.Rhs) == 1 && callOf(as.Rhs[0], helpers)
		for i, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
				vars[id.Name] = h && i == len(as.Lhs)-1
			}
		}
		return true
	})
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || fset.Position(call.Pos()).Line != line {
			return true
		}
		var t, v bool
		for _, a := range call.Args {
			ast.Inspect(a, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					t = t || tvars[id.Name]
					v = v || vars[id.Name]
				}
				return true
			})
		}
		if s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(s.X).(*ast.Ident); ok && tvars[id.Name] && failMethods[s.Sel.Name] {
				t = true // t.Errorf("…: %v", err)
			}
		}
		found = t && v
		return !found
	})
	return found
}
