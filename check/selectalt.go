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
// whose other cases are channels of the program is left out: whether one
// of them can fire is a question of the whole program, and a replay that
// blocks there would only be pruned. Files are parsed once each.
type selectAlts struct {
	dir   string // the package's directory: sites name files relative to its module's root
	mu    sync.Mutex
	files map[string]map[int]bool // path → lines of such select cases
}

func (s *selectAlts) at(site string) bool {
	i := strings.LastIndexByte(site, ':')
	if i < 0 {
		return false
	}
	path, rest := site[:i], site[i+1:]
	line, err := strconv.Atoi(rest)
	if j := strings.LastIndexByte(path, ':'); j >= 0 {
		// path:line:col
		if l, err2 := strconv.Atoi(path[j+1:]); err2 == nil {
			path, line, err = path[:j], l, nil
		}
	}
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]map[int]bool{}
	}
	lines, ok := s.files[path]
	if !ok {
		lines = selectCaseLines(s.resolve(path))
		s.files[path] = lines
	}
	return lines[line]
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

// selectCaseLines returns the lines of the communication cases of the
// file's selects that have another branch of the kinds selectAlts takes.
func selectCaseLines(path string) map[int]bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	out := map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectStmt)
		if !ok {
			return true
		}
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
			for _, o := range comms {
				if o != cc && escape(o) {
					out[fset.Position(cc.Comm.Pos()).Line] = true
					for _, p := range []token.Pos{cc.Comm.End()} {
						out[fset.Position(p).Line] = true
					}
					break
				}
			}
		}
		return true
	})
	return out
}

// escape reports whether case c can fire with no other goroutine of the
// program acting on a channel: default, or a receive from a call's
// result or from a field C (a timer, a ticker).
func escape(c *ast.CommClause) bool {
	if c.Comm == nil {
		return true
	}
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
		return false
	}
	switch ch := ast.Unparen(u.X).(type) {
	case *ast.CallExpr:
		return true
	case *ast.SelectorExpr:
		return ch.Sel.Name == "C"
	}
	return false
}
