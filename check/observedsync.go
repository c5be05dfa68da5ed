package check

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Observed leaks beyond the go-with-timeout idiom (observed.go): a
// goroutine the test started, still blocked at its end in a plain send or
// receive (no select's case), a range loop over a channel, a select with
// no default, a Mutex's or RWMutex's lock, a WaitGroup's Wait or a Cond's
// Wait. Each is reported only when nothing
// live can release it, which the source and the trace show together:
//
//   - The goroutine runs a function literal that a go statement G of
//     function F calls (the trace's fork of the goroutine is at G), and
//     the primitive, every channel of the select included, is a variable
//     F declares itself (a make(chan …), a sync.Mutex, sync.RWMutex or
//     sync.WaitGroup, a sync.NewCond). A package-level or field
//     primitive, one a daemon may hold, is never reported.
//   - F uses it only through its operations (channel operations and
//     close, len, cap; the sync type's methods): it is never stored,
//     passed, returned, copied or had its address taken, so only code of
//     F can reach it.
//   - Every use that could release the goroutine (for a receive: a send
//     or a close; for a send: a receive or a close; Unlock and RUnlock;
//     Add, Done and Go; Signal and Broadcast) runs in F's own body or in
//     a goroutine that a go statement of F's own body (or a wg.Go call
//     there) starts, not in a closure kept for later.
//   - F's goroutine, the blocked goroutine's parent, has ended (so F has
//     returned and starts nothing more), and every goroutine started at
//     a go statement that holds a releasing use has ended too, or is
//     blocked at the test's end in the very same operation (stuck for
//     the same reason).
//
// Then no goroutine that is live, or can ever start, holds a use that
// could release it: it is blocked forever. As for channel sends and
// receives, a replay of the recorded order proves it (rt's leakProof).

// blockedFacts is what a trace says about the goroutines around its
// blocked operations.
type blockedFacts struct {
	tr      *trace.Trace
	ended   map[string]bool     // goroutines with an end event
	forkAt  map[string]string   // goroutine → the "path:line" of its fork
	parent  map[string]string   // goroutine → the goroutine that forked it
	forks   map[string][]string // "path:line" → the goroutines forked there
	blocked map[string][]int    // goroutine → its indices in tr.Blocked
}

func newBlockedFacts(tr *trace.Trace) *blockedFacts {
	f := &blockedFacts{tr: tr, ended: map[string]bool{}, forkAt: map[string]string{}, parent: map[string]string{}, forks: map[string][]string{}, blocked: map[string][]int{}}
	for _, e := range tr.Events {
		switch e.Op {
		case trace.End:
			f.ended[tr.Goroutines[e.G]] = true
		case trace.Fork:
			if e.Obj < 0 || int(e.Obj) >= len(tr.Goroutines) || e.Site < 0 || int(e.Site) >= len(tr.Sites) {
				continue
			}
			path, line, ok := siteLine(tr.Sites[e.Site])
			if !ok {
				continue
			}
			at := fmt.Sprintf("%s:%d", path, line)
			child := tr.Goroutines[e.Obj]
			f.forkAt[child] = at
			f.parent[child] = tr.Goroutines[e.G]
			f.forks[at] = append(f.forks[at], child)
		}
	}
	// The test's goroutine (TestFork's: the main goroutine's fork that
	// opens the trace) has returned from the test function when the
	// recorder notes the blocked goroutines, though its end event comes
	// later, in a cleanup, after a shared process's trace has closed.
	if len(tr.Events) > 0 {
		if e := tr.Events[0]; e.Op == trace.Fork && tr.Goroutines[e.G] == "g1" && e.Obj >= 0 && int(e.Obj) < len(tr.Goroutines) {
			f.ended[tr.Goroutines[e.Obj]] = true
		}
	}
	for k, e := range tr.Blocked {
		g := tr.Goroutines[e.G]
		f.blocked[g] = append(f.blocked[g], k)
	}
	return f
}

// stuckHere reports whether goroutine g is blocked at the test's end in
// the same operation (op at site) as the blocked event under judgement.
func (f *blockedFacts) stuckHere(g string, op trace.Op, site int32) bool {
	for _, k := range f.blocked[g] {
		if e := f.tr.Blocked[k]; e.Op == op && e.Site == site {
			return true
		}
	}
	return false
}

// primUse is one way a primitive's uses may release its blocked
// goroutine: a channel's direction, or a method.
type primUse struct {
	release bool
	ok      bool // an operation at all (else: the primitive escapes)
}

// stuck reports whether tr.Blocked[k], a goroutine blocked at the test's
// end, is one nothing live can release (see above), and returns how the
// report names the blocked operation and why.
func (s *selectAlts) stuck(facts *blockedFacts, k int) (waits, why string, ok bool) {
	tr := facts.tr
	ev := tr.Blocked[k]
	if ev.Site < 0 || int(ev.Site) >= len(tr.Sites) || ev.G < 0 || int(ev.G) >= len(tr.Goroutines) {
		return "", "", false
	}
	g := tr.Goroutines[ev.G]
	path, line, ok := siteLine(tr.Sites[ev.Site])
	if !ok {
		return "", "", false
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, s.resolve(path), nil, 0)
	if err != nil {
		return "", "", false
	}
	lineOf := func(n ast.Node) int { return fset.Position(n.Pos()).Line }

	// The blocked operation: what it waits on (the primitives, each with
	// the direction it is blocked in for a channel) and where.
	type prim struct {
		obj  *ast.Object
		recv bool // a channel blocked in a receive (else a send)
		send bool // … in a send
	}
	var prims []*prim
	var at []ast.Node // the stack of the blocked statement
	add := func(id *ast.Ident, recv bool) bool {
		if id == nil || id.Obj == nil || id.Obj.Kind != ast.Var {
			return false
		}
		for _, p := range prims {
			if p.obj == id.Obj {
				p.recv, p.send = p.recv || recv, p.send || !recv
				return true
			}
		}
		prims = append(prims, &prim{obj: id.Obj, recv: recv, send: !recv})
		return true
	}
	method := "" // the sync method blocked in
	var stack []ast.Node
	found := false
	plain := 0 // plain sends or receives (no select's) of ev's direction at line
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		// A plain send or receive (rt's Send and Recv), not a select's
		// case: counted even once found, so that a line with two of them,
		// which the site cannot tell apart, is left alone.
		var x ast.Expr
		switch n := n.(type) {
		case *ast.SendStmt:
			if ev.Op == trace.Send && lineOf(n) == line && !isComm(stack) {
				x = n.Chan
			}
		case *ast.UnaryExpr:
			if ev.Op == trace.Recv && n.Op == token.ARROW && lineOf(n) == line && !isComm(stack) {
				x = n.X
			}
		}
		if x != nil {
			plain++
			if !found {
				found = true
				waits = map[bool]string{true: "chan receive", false: "chan send"}[ev.Op == trace.Recv]
				if !add(identOf(x), ev.Op == trace.Recv) {
					prims = nil
				}
				at = append([]ast.Node(nil), stack...)
			}
			return true
		}
		if found {
			return true
		}
		switch n := n.(type) {
		case *ast.RangeStmt:
			if ev.Op == trace.Recv && lineOf(n) == line {
				found = true
				waits = "range over channel"
				if !add(identOf(n.X), true) {
					prims = nil
				}
				at = append([]ast.Node(nil), stack...)
			}
		case *ast.CommClause:
			if (ev.Op == trace.Recv || ev.Op == trace.Send) && n.Comm != nil && lineOf(n.Comm) == line && len(stack) >= 3 {
				sel, isSel := stack[len(stack)-3].(*ast.SelectStmt)
				if !isSel {
					return true
				}
				found = true
				waits = "select"
				at = append([]ast.Node(nil), stack[:len(stack)-2]...)
				for _, c := range sel.Body.List {
					cc := c.(*ast.CommClause)
					id, recv := commChan(cc.Comm)
					if cc.Comm == nil || !add(id, recv) {
						prims = nil // a default, or a channel not a variable
						return true
					}
				}
			}
		case *ast.CallExpr:
			sel, isSel := n.Fun.(*ast.SelectorExpr)
			if !isSel || lineOf(n) != line {
				return true
			}
			want := map[trace.Op][]string{trace.Lock: {"Lock"}, trace.RLock: {"RLock"}, trace.WGWait: {"Wait"}, trace.CondWait: {"Wait"}}[ev.Op]
			if !contains(want, sel.Sel.Name) {
				return true
			}
			found = true
			method = sel.Sel.Name
			if !add(identOf(sel.X), false) {
				prims = nil
			}
			at = append([]ast.Node(nil), stack...)
		}
		return true
	})
	if !found || len(prims) == 0 || plain > 1 {
		return "", "", false
	}
	// The go statement whose function literal the goroutine runs, and F.
	gs, lit, ok := goroutineOf(at)
	if !ok || facts.forkAt[g] != fmt.Sprintf("%s:%d", path, lineOf(gs)) {
		return "", "", false
	}
	outer := enclosingFunc(at, lit)
	if outer == nil {
		return "", "", false
	}
	// The kind of primitive, from its declaration in F.
	kind := ""
	for _, p := range prims {
		if p.obj.Decl == nil || declFunc(f, p.obj) != outer {
			return "", "", false
		}
		var k string
		switch {
		case madeHere(p.obj):
			k = "chan"
		default:
			k = syncDecl(p.obj)
		}
		if k == "" || kind != "" && k != kind {
			return "", "", false
		}
		kind = k
	}
	switch {
	case ev.Op == trace.Recv || ev.Op == trace.Send:
		if kind != "chan" {
			return "", "", false
		}
	case ev.Op == trace.Lock || ev.Op == trace.RLock:
		if kind != "Mutex" && kind != "RWMutex" {
			return "", "", false
		}
		waits = kind + "." + method
	case ev.Op == trace.WGWait:
		if kind != "WaitGroup" {
			return "", "", false
		}
		waits = "WaitGroup.Wait"
	case ev.Op == trace.CondWait:
		if kind != "Cond" {
			return "", "", false
		}
		waits = "Cond.Wait"
	}
	// Every use in F: an operation, and where the releasing ones run.
	release := map[string]bool{} // "path:line" of the go statements (or wg.Go calls) holding one
	ok = true
	stack = stack[:0]
	ast.Inspect(outer, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !ok || !isID || id.Obj == nil || len(stack) < 2 {
			return true
		}
		var p *prim
		for _, q := range prims {
			if q.obj == id.Obj {
				p = q
			}
		}
		if p == nil || id.Pos() == p.obj.Pos() {
			return true
		}
		var u primUse
		var goLine int // a wg.Go call: its goroutines release
		if kind == "chan" {
			u = chanUse(stack, p.recv, p.send)
		} else {
			u, goLine = syncUse(stack, kind, lineOf)
		}
		if !u.ok {
			ok = false
			return true
		}
		if !u.release && goLine == 0 {
			return true
		}
		// Where it runs: F's own body, or a goroutine a go statement of
		// F's body starts.
		ctx, clit, cok := goroutineOf(stack)
		if cok && enclosingFunc(stack, clit) != outer {
			cok = false // a goroutine started by a goroutine of F: its starter may still live
		}
		switch {
		case !cok && !inOwnBody(stack, outer):
			ok = false // a closure F keeps, passes or calls later
		case u.release && cok:
			release[fmt.Sprintf("%s:%d", path, lineOf(ctx))] = true
		}
		if goLine != 0 {
			if cok {
				ok = false // wg.Go inside a goroutine of F
			} else {
				release[fmt.Sprintf("%s:%d", path, goLine)] = true
			}
		}
		return true
	})
	if !ok {
		return "", "", false
	}
	if parent, ok := facts.parent[g]; !ok || !facts.ended[parent] {
		return "", "", false // F may still run
	}
	for at := range release {
		for _, o := range facts.forks[at] {
			if !facts.ended[o] && !facts.stuckHere(o, ev.Op, ev.Site) {
				return "", "", false
			}
		}
	}
	switch kind {
	case "chan":
		why = "nothing live can send on or close its channel"
		switch waits {
		case "select":
			why = "nothing live can complete any of its cases"
		case "chan send":
			why = "nothing live can receive from its channel"
		}
	case "WaitGroup":
		why = "its counter cannot reach zero: every goroutine that can call Done has exited"
	case "Cond":
		why = "nothing live can signal it: every goroutine that can has exited"
	default:
		why = "nothing live can unlock it: every goroutine that can has exited"
	}
	return waits, why, true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// isComm reports whether stack's last node, a send statement or a
// receive expression, is a select case's operation.
func isComm(stack []ast.Node) bool {
	n := len(stack)
	if n >= 2 {
		if cc, ok := stack[n-2].(*ast.CommClause); ok && cc.Comm == stack[n-1] {
			return true
		}
	}
	if n >= 3 {
		if cc, ok := stack[n-3].(*ast.CommClause); ok && cc.Comm == stack[n-2] {
			return true
		}
	}
	return false
}

// identOf is x as a variable's identifier, or nil.
func identOf(x ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(x).(*ast.Ident)
	return id
}

// commChan is the channel of a select case's statement and whether the
// case receives.
func commChan(s ast.Stmt) (*ast.Ident, bool) {
	switch s := s.(type) {
	case *ast.SendStmt:
		return identOf(s.Chan), false
	case *ast.ExprStmt:
		if u, ok := ast.Unparen(s.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			return identOf(u.X), true
		}
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			if u, ok := ast.Unparen(s.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				return identOf(u.X), true
			}
		}
	}
	return nil, false
}

// goroutineOf returns the innermost go statement of stack whose function
// literal encloses stack's last node, skipping literals called at once
// or deferred (they run in the goroutine around them), and that literal.
// ok is false if a literal in between is neither (a closure kept for
// later), or no go statement encloses it.
func goroutineOf(stack []ast.Node) (gs ast.Node, lit *ast.FuncLit, ok bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		switch fn := stack[i].(type) {
		case *ast.FuncDecl:
			return nil, nil, false
		case *ast.FuncLit:
			if i < 2 {
				return nil, nil, false
			}
			call, isCall := stack[i-1].(*ast.CallExpr)
			if !isCall || call.Fun != fn {
				return nil, nil, false
			}
			if g, isGo := stack[i-2].(*ast.GoStmt); isGo {
				return g, fn, true
			}
			// Called at once (or deferred): the goroutine around it.
		}
	}
	return nil, nil, false
}

// enclosingFunc is the function (declaration or literal) around lit in
// stack, skipping literals called at once or deferred; nil if there is
// none.
func enclosingFunc(stack []ast.Node, lit *ast.FuncLit) ast.Node {
	i := len(stack) - 1
	for i >= 0 && stack[i] != ast.Node(lit) {
		i--
	}
	for i--; i >= 0; i-- {
		switch fn := stack[i].(type) {
		case *ast.FuncDecl:
			return fn
		case *ast.FuncLit:
			if i >= 1 {
				if call, isCall := stack[i-1].(*ast.CallExpr); isCall && call.Fun == fn {
					if i < 2 {
						return fn
					}
					if _, isGo := stack[i-2].(*ast.GoStmt); !isGo {
						continue // called at once: its caller's
					}
				}
			}
			return fn
		}
	}
	return nil
}

// inOwnBody reports whether stack's last node runs in outer's own body:
// every function literal between is called at once or deferred.
func inOwnBody(stack []ast.Node, outer ast.Node) bool {
	for i := len(stack) - 1; i >= 0 && stack[i] != outer; i-- {
		if fn, isLit := stack[i].(*ast.FuncLit); isLit {
			if i < 2 {
				return false
			}
			call, isCall := stack[i-1].(*ast.CallExpr)
			if !isCall || call.Fun != fn {
				return false
			}
			if _, isGo := stack[i-2].(*ast.GoStmt); isGo {
				return false
			}
		}
	}
	return true
}

// declFunc is the function of f whose body declares obj (the innermost
// declaration or literal around its declaration).
func declFunc(f *ast.File, obj *ast.Object) ast.Node {
	var out ast.Node
	pos := obj.Pos()
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || !(n.Pos() <= pos && pos < n.End()) {
			return false
		}
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			out = n
		}
		return true
	})
	return out
}

// syncDecl is the sync type obj is declared as a value of ("var mu
// sync.Mutex", "wg := &sync.WaitGroup{}", "new(sync.RWMutex)", "c :=
// sync.NewCond(…)": Mutex, RWMutex, WaitGroup, Cond), or "".
func syncDecl(obj *ast.Object) string {
	isSync := func(x ast.Expr, names ...string) string {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "sync" || pkg.Obj != nil {
			return ""
		}
		if contains(names, sel.Sel.Name) {
			return sel.Sel.Name
		}
		return ""
	}
	types := []string{"Mutex", "RWMutex", "WaitGroup"}
	value := func(x ast.Expr) string {
		x = ast.Unparen(x)
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
			x = u.X
		}
		switch x := x.(type) {
		case *ast.CompositeLit:
			if len(x.Elts) == 0 {
				return isSync(x.Type, types...)
			}
		case *ast.CallExpr:
			if fn, ok := x.Fun.(*ast.Ident); ok && fn.Name == "new" && fn.Obj == nil && len(x.Args) == 1 {
				return isSync(x.Args[0], types...)
			}
			if isSync(x.Fun, "NewCond") != "" {
				return "Cond"
			}
		}
		return ""
	}
	switch d := obj.Decl.(type) {
	case *ast.ValueSpec:
		if len(d.Names) != 1 {
			return ""
		}
		if len(d.Values) == 0 {
			return isSync(d.Type, types...)
		}
		if len(d.Values) == 1 {
			return value(d.Values[0])
		}
	case *ast.AssignStmt:
		if len(d.Lhs) == 1 && len(d.Rhs) == 1 && d.Tok == token.DEFINE {
			return value(d.Rhs[0])
		}
	}
	return ""
}

// chanUse classifies the use of a channel variable at the top of stack,
// blocked in a receive (recv) or a send: a channel operation, and
// whether it could complete the blocked one (the other direction, or a
// close).
func chanUse(stack []ast.Node, recv, send bool) primUse {
	id := stack[len(stack)-1]
	switch p := stack[len(stack)-2].(type) {
	case *ast.SendStmt:
		if p.Chan == id {
			return primUse{ok: true, release: recv}
		}
	case *ast.UnaryExpr:
		if p.Op == token.ARROW {
			return primUse{ok: true, release: send}
		}
	case *ast.RangeStmt:
		if p.X == id {
			return primUse{ok: true, release: send}
		}
	case *ast.CallExpr:
		if fn, isID := p.Fun.(*ast.Ident); isID && fn.Obj == nil && len(p.Args) == 1 {
			switch fn.Name {
			case "close":
				return primUse{ok: true, release: true}
			case "len", "cap":
				return primUse{ok: true}
			}
		}
	}
	return primUse{}
}

// syncUse classifies the use of a sync variable of kind at the top of
// stack: a method call, whether it could release a goroutine blocked in
// it, and for a WaitGroup's Go the line of the call, whose goroutine's
// end is its Done.
func syncUse(stack []ast.Node, kind string, lineOf func(ast.Node) int) (primUse, int) {
	if len(stack) < 3 {
		return primUse{}, 0
	}
	sel, ok := stack[len(stack)-2].(*ast.SelectorExpr)
	if !ok || sel.X != stack[len(stack)-1] {
		return primUse{}, 0
	}
	call, ok := stack[len(stack)-3].(*ast.CallExpr)
	name := sel.Sel.Name
	if kind == "Cond" && name == "L" && len(stack) >= 4 {
		// c.L.Lock(), c.L.Unlock(): the Cond's locker, not its waiters.
		outer, isSel := stack[len(stack)-3].(*ast.SelectorExpr)
		if call4, isCall := stack[len(stack)-4].(*ast.CallExpr); isSel && isCall && call4.Fun == outer &&
			(outer.Sel.Name == "Lock" || outer.Sel.Name == "Unlock") {
			return primUse{ok: true}, 0
		}
		return primUse{}, 0
	}
	if !ok || call.Fun != sel {
		return primUse{}, 0
	}
	switch kind {
	case "Mutex", "RWMutex":
		switch name {
		case "Unlock", "RUnlock":
			return primUse{ok: true, release: true}, 0
		case "Lock", "RLock", "TryLock", "TryRLock":
			return primUse{ok: true}, 0
		}
	case "WaitGroup":
		switch name {
		case "Add", "Done":
			return primUse{ok: true, release: true}, 0
		case "Wait":
			return primUse{ok: true}, 0
		case "Go":
			return primUse{ok: true}, lineOf(call)
		}
	case "Cond":
		switch name {
		case "Signal", "Broadcast":
			return primUse{ok: true, release: true}, 0
		case "Wait":
			return primUse{ok: true}, 0
		}
	}
	return primUse{}, 0
}
