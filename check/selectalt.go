package check

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
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
}

// fileSelects is what selectAlts knows of one file's selects, by line.
type fileSelects struct {
	alt   map[int]bool         // lines of cases whose select has an escape branch
	sel   map[int]int          // line of a communication case → its select (an index)
	stops map[int]map[int]bool // select → lines of its stop cases (stopCase)
}

func (s *selectAlts) at(site string) bool {
	f, line := s.lookup(site)
	return f != nil && f.alt[line]
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
	path, sl, ok := splitSite(stop)
	sp, _, _ := splitSite(sel)
	return ok && path == sp && sl != line && stops[sl]
}

// splitSite splits "path:line:col" (or "path:line") into path and line.
func splitSite(site string) (string, int, bool) {
	i := strings.LastIndexByte(site, ':')
	if i < 0 {
		return "", 0, false
	}
	path, rest := site[:i], site[i+1:]
	line, err := strconv.Atoi(rest)
	if j := strings.LastIndexByte(path, ':'); j >= 0 {
		// path:line:col
		if l, err2 := strconv.Atoi(path[j+1:]); err2 == nil {
			path, line, err = path[:j], l, nil
		}
	}
	return path, line, err == nil
}

// lookup returns the selects of the file a site names and its line.
func (s *selectAlts) lookup(site string) (*fileSelects, int) {
	path, line, ok := splitSite(site)
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

// resolve finds the file a site names: as is if absolute, else relative
// to the package's directory or one of its parents (the module's root).
func (s *selectAlts) resolve(path string) string {
	if filepath.IsAbs(path) || s.dir == "" {
		return path
	}
	for d := s.dir; ; d = filepath.Dir(d) {
		if p := filepath.Join(d, path); fileExists(p) {
			return p
		}
		if filepath.Dir(d) == d {
			return path
		}
	}
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// parseSelects finds the file's selects: the lines of the communication
// cases that have another branch of the kinds selectAlts.at takes, and
// of every case with its select and that select's stop cases. A file
// that does not parse has none.
func parseSelects(path string) *fileSelects {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	out := &fileSelects{alt: map[int]bool{}, sel: map[int]int{}, stops: map[int]map[int]bool{}}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectStmt)
		if !ok {
			return true
		}
		idx := len(out.stops)
		stops := map[int]bool{}
		out.stops[idx] = stops
		var comms []*ast.CommClause
		for _, c := range sel.Body.List {
			if cc, ok := c.(*ast.CommClause); ok {
				comms = append(comms, cc)
			}
		}
		for _, cc := range comms {
			if cc.Comm == nil {
				continue
			}
			// A case's operation is recorded at its channel operand's
			// line; an assignment may span two.
			lines := []int{fset.Position(cc.Comm.Pos()).Line, fset.Position(cc.Comm.End()).Line}
			for _, l := range lines {
				out.sel[l] = idx
				if stopRecv(cc) {
					stops[l] = true
				}
			}
			for _, o := range comms {
				if o != cc && escape(o) {
					for _, l := range lines {
						out.alt[l] = true
					}
					break
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
