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

// relockSites answers predict.Options.Relock from the source: whether a
// read at a site ("path:line:col") is in the condition of an if whose
// branches lock again a mutex that the function holds there — directly,
// or through calls of the package's functions and of methods on the same
// receiver. Such a branch, if taken, blocks forever: sync's locks are not
// reentrant (a Lock behind a held Lock or RLock, an RLock behind a held
// Lock). The recorded run did not take it (its test passed); the
// double-lock finder asks for a schedule that changes what the condition
// reads. The analysis is syntactic, per package directory, and names a
// mutex by its selector with the receiver replaced by its type
// ("Cache.mu"), so that a method's lock and its callee's match. Files
// are parsed once per directory.
//
// invAt answers predict.Options.Inversion the same way: whether a read at
// a site decides a path that takes another mutex while the function
// holds one there (moby#4951: the global lock held, a lookup, then the
// device's lock). The path is an if's branches, or, when the if's body
// leaves the block (return, break, continue, panic) and it has no else,
// the statements after it; the read is in the condition, or in the
// assignment just before the if whose variables the condition uses
// (info := m[k]; if info == nil { return }).
type relockSites struct {
	dir  string // the package's directory: sites name files relative to its module's root
	mu   sync.Mutex
	dirs map[string]map[string]map[int]siteKind // directory → file → lines of such reads
}

// siteKind says what a line's reads decide (bits).
type siteKind uint8

const (
	relockLine    siteKind = 1 << iota // a branch that locks a held mutex again
	inversionLine                      // a path that takes another mutex with one held
)

func (s *relockSites) at(site string) bool { return s.kind(site)&relockLine != 0 }

func (s *relockSites) invAt(site string) bool { return s.kind(site)&inversionLine != 0 }

func (s *relockSites) kind(site string) siteKind {
	path, line, ok := siteLine(site)
	if !ok {
		return 0
	}
	path = resolveSite(s.dir, path)
	dir, file := filepath.Dir(path), filepath.Base(path)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dirs == nil {
		s.dirs = map[string]map[string]map[int]siteKind{}
	}
	files, ok := s.dirs[dir]
	if !ok {
		files = relockLines(dir)
		s.dirs[dir] = files
	}
	return files[file][line]
}

// siteLine splits "path:line" or "path:line:col".
func siteLine(site string) (path string, line int, ok bool) {
	i := strings.LastIndexByte(site, ':')
	if i < 0 {
		return "", 0, false
	}
	path, rest := site[:i], site[i+1:]
	line, err := strconv.Atoi(rest)
	if j := strings.LastIndexByte(path, ':'); j >= 0 {
		if l, err2 := strconv.Atoi(path[j+1:]); err2 == nil {
			path, line, err = path[:j], l, nil
		}
	}
	return path, line, err == nil
}

// resolveSite finds the file a site names: as is if absolute, else
// relative to dir or one of its parents (the module's root).
func resolveSite(dir, path string) string {
	if filepath.IsAbs(path) || dir == "" {
		return path
	}
	for d := dir; ; d = filepath.Dir(d) {
		if p := filepath.Join(d, path); fileExists(p) {
			return p
		}
		if filepath.Dir(d) == d {
			return path
		}
	}
}

// relockLines parses the Go files of dir and returns, per file name, the
// lines of the reads relockSites accepts, with what they decide.
func relockLines(dir string) map[string]map[int]siteKind {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	byPkg := map[string][]*ast.File{}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		byPkg[f.Name.Name] = append(byPkg[f.Name.Name], f)
	}
	out := map[string]map[int]siteKind{}
	for _, files := range byPkg {
		a := &relockPkg{fset: fset, funcs: map[string]*ast.FuncDecl{}, memo: map[string]map[string]bool{}, out: out}
		for _, f := range files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					a.funcs[funcKey(fd)] = fd
				}
			}
		}
		for _, fd := range a.funcs {
			recv, typ := receiver(fd)
			a.walk(fd.Body.List, map[string]string{}, recv, typ)
		}
	}
	return out
}

// relockPkg is the analysis of one package's files.
type relockPkg struct {
	fset  *token.FileSet
	funcs map[string]*ast.FuncDecl    // "Type.Method" or "Func" → its declaration
	memo  map[string]map[string]bool  // function → the acquisitions it may make ("Cache.mu|Lock")
	out   map[string]map[int]siteKind // file → lines
}

func funcKey(fd *ast.FuncDecl) string {
	if _, typ := receiver(fd); typ != "" {
		return typ + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// receiver returns a method's receiver name and type name ("c", "Cache").
func receiver(fd *ast.FuncDecl) (name, typ string) {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return "", ""
	}
	f := fd.Recv.List[0]
	t := f.Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return "", ""
	}
	if len(f.Names) > 0 {
		name = f.Names[0].Name
	}
	return name, id.Name
}

// lockCall returns the mutex and the method of a call X.Lock(),
// X.RLock(), X.Unlock() or X.RUnlock(), the mutex named by its selector
// with the receiver recv replaced by its type typ.
func lockCall(call *ast.CallExpr, recv, typ string) (key, op string, ok bool) {
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	if !isSel || len(call.Args) != 0 {
		return "", "", false
	}
	switch op = sel.Sel.Name; op {
	case "Lock", "RLock", "Unlock", "RUnlock":
	default:
		return "", "", false
	}
	var parts []string
	x := sel.X
	for {
		switch e := x.(type) {
		case *ast.SelectorExpr:
			parts = append(parts, e.Sel.Name)
			x = e.X
			continue
		case *ast.Ident:
			name := e.Name
			if name == recv && typ != "" {
				name = typ
			}
			parts = append(parts, name)
		default:
			return "", "", false
		}
		break
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "."), op, true
}

// acquires returns the acquisitions ("key|Lock", "key|RLock") that the
// nodes may make, directly or through calls of the package's functions
// and of methods on the receiver recv; not in a go statement's call,
// which runs in another goroutine. A lock taken after the nodes released
// the same mutex (drop the lock around a wait, take it again) is not
// counted: it waits for no lock held before the nodes.
func (a *relockPkg) acquires(nodes []ast.Node, recv, typ string, out map[string]bool) {
	released := map[string]bool{}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.DeferStmt:
				if _, op, ok := lockCall(x.Call, recv, typ); ok && (op == "Unlock" || op == "RUnlock") {
					return false // runs at the end: it releases nothing before a later lock
				}
			case *ast.CallExpr:
				if key, op, ok := lockCall(x, recv, typ); ok {
					switch {
					case op == "Unlock" || op == "RUnlock":
						released[key] = true
					case !released[key]:
						out[key+"|"+op] = true
					}
					return true
				}
				callee := ""
				switch f := x.Fun.(type) {
				case *ast.Ident:
					callee = f.Name
				case *ast.SelectorExpr:
					if id, ok := f.X.(*ast.Ident); ok && id.Name == recv && typ != "" {
						callee = typ + "." + f.Sel.Name
					}
				}
				for k := range a.funcAcquires(callee) {
					out[k] = true
				}
			}
			return true
		})
	}
}

// funcAcquires is acquires of a function's body, memoized (a recursive
// call sees what is known so far).
func (a *relockPkg) funcAcquires(key string) map[string]bool {
	if m, ok := a.memo[key]; ok {
		return m
	}
	fd, ok := a.funcs[key]
	if !ok {
		return nil
	}
	m := map[string]bool{}
	a.memo[key] = m
	recv, typ := receiver(fd)
	a.acquires([]ast.Node{fd.Body}, recv, typ, m)
	return m
}

// walk follows a statement list in order, with the mutexes held (key →
// "Lock" or "RLock"), and marks the conditions of the ifs whose branches
// acquire a held mutex again in a mode that blocks.
func (a *relockPkg) walk(list []ast.Stmt, held map[string]string, recv, typ string) {
	clone := func() map[string]string {
		c := make(map[string]string, len(held))
		for k, v := range held {
			c[k] = v
		}
		return c
	}
	for i, st := range list {
		switch s := st.(type) {
		case *ast.ExprStmt:
			if call, ok := s.X.(*ast.CallExpr); ok {
				if key, op, ok := lockCall(call, recv, typ); ok {
					switch op {
					case "Lock", "RLock":
						held[key] = op
					default:
						delete(held, key)
					}
				}
			}
		case *ast.IfStmt:
			if len(held) > 0 {
				acq := map[string]bool{}
				nodes := []ast.Node{s.Body}
				if s.Else != nil {
					nodes = append(nodes, s.Else)
				}
				a.acquires(nodes, recv, typ, acq)
				for key, mode := range held {
					if acq[key+"|Lock"] || mode == "Lock" && acq[key+"|RLock"] {
						a.mark(s.Cond, relockLine)
						break
					}
				}
				if s.Else == nil && terminates(s.Body) {
					// The path the condition decides goes on after the if.
					nodes := make([]ast.Node, 0, len(list)-i-1)
					for _, st := range list[i+1:] {
						nodes = append(nodes, st)
					}
					a.acquires(nodes, recv, typ, acq)
				}
				for k := range acq {
					if _, ok := held[k[:strings.IndexByte(k, '|')]]; !ok {
						a.mark(s.Cond, inversionLine)
						if s.Init != nil {
							a.mark(s.Init, inversionLine)
						}
						if i > 0 && assigns(list[i-1], s.Cond) {
							a.mark(list[i-1], inversionLine)
						}
						break
					}
				}
			}
			a.walk(s.Body.List, clone(), recv, typ)
			if s.Else != nil {
				a.walk([]ast.Stmt{s.Else}, clone(), recv, typ)
			}
		case *ast.BlockStmt:
			a.walk(s.List, clone(), recv, typ)
		case *ast.ForStmt:
			a.walk(s.Body.List, clone(), recv, typ)
		case *ast.RangeStmt:
			a.walk(s.Body.List, clone(), recv, typ)
		case *ast.SwitchStmt:
			for _, c := range s.Body.List {
				a.walk(c.(*ast.CaseClause).Body, clone(), recv, typ)
			}
		case *ast.TypeSwitchStmt:
			for _, c := range s.Body.List {
				a.walk(c.(*ast.CaseClause).Body, clone(), recv, typ)
			}
		case *ast.SelectStmt:
			for _, c := range s.Body.List {
				a.walk(c.(*ast.CommClause).Body, clone(), recv, typ)
			}
		case *ast.LabeledStmt:
			a.walk([]ast.Stmt{s.Stmt}, held, recv, typ)
		}
	}
}

// mark records the lines of a condition (or the statement its value
// comes from) as kind k.
func (a *relockPkg) mark(n ast.Node, k siteKind) {
	from, to := a.fset.Position(n.Pos()), a.fset.Position(n.End())
	file := filepath.Base(from.Filename)
	lines := a.out[file]
	if lines == nil {
		lines = map[int]siteKind{}
		a.out[file] = lines
	}
	for l := from.Line; l <= to.Line; l++ {
		lines[l] |= k
	}
}

// terminates reports whether a block's last statement leaves it for
// good: a return, a branch (break, continue, goto) or a call of panic.
func terminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := call.Fun.(*ast.Ident)
		return ok && id.Name == "panic"
	}
	return false
}

// assigns reports whether st assigns (= or :=) a variable that cond uses.
func assigns(st ast.Stmt, cond ast.Expr) bool {
	as, ok := st.(*ast.AssignStmt)
	if !ok {
		return false
	}
	names := map[string]bool{}
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
			names[id.Name] = true
		}
	}
	used := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] {
			used = true
		}
		return !used
	})
	return used
}
