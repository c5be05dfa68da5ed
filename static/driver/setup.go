package driver

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// A setup is a test's own code that builds a receiver and puts state in
// it, copied into a driver (issue 27, after Narada and Intruder, which
// synthesize concurrent tests from a library's sequential ones): the
// statements of a test or example before its first call of either method
// of the pair, on a local variable that the test builds, and what it does
// to end the receiver's life (its deferred calls, its t.Cleanup
// functions, and its later Stop, Close… of the receiver; not its checks
// of the process's goroutines: leakCheck). The arguments
// the test passes to the two methods go with it. An empty ledger fails
// every Withdraw at once, so two concurrent Withdraws show nothing; the
// test's own Deposit first puts the check-then-act in reach. A pool built
// with a function literal and started with Start could not be built at
// all from constants.
type setup struct {
	test string    // the test or example it comes from: "TestWithdraw"
	at   string    // where: "ledger_test.go:9"
	self string    // the import path of the package under test (an external test's qualifier of it is dropped)
	cut  token.Pos // the test's first call of either method

	fset  *token.FileSet
	info  *types.Info
	stmts []ast.Stmt // the copied statements
	// cleanup runs after the calls and the state are read: a deferred
	// or trailing call, or a t.Cleanup function (call set: to call).
	cleanup []cleanupItem
	recv    string        // an expression of type *T: "l" or "&l"
	alias   string        // T, when recv asserts to an alias of *T: a variable of the setup is named T
	vars    []*types.Var  // variables the statements declare
	unused  []string      // those nothing copied uses, marked used
	second  *ast.CallExpr // a method called twice (m0 == m1): its second call
	tname   string        // the test's *testing.T parameter, if not "t" (bound to the driver's)
	// targs are the type arguments of the receiver's type, when it is
	// an instance of a generic type: the driver instantiates it so.
	targs []types.Type
	// calls: method name → the test's first call of it on the receiver,
	// whose arguments the driver passes.
	calls map[string]*ast.CallExpr
	// before: the method of the test's first call on the receiver, when
	// no test's calls of the pair can be copied (it makes none, or passes
	// them what the driver cannot): its construction only is copied, cut
	// before that call, and the pair gets the tests' constants or small
	// values.
	before string
	// dropped: the lines of the test's statements before the cut that
	// call what the driver cannot (an external test's own helper), left
	// out.
	dropped []int
	// subtests: the lines of the test's subtests before the cut (a
	// t.Run, or a loop of them), left out (isSubtests).
	subtests []int
	// helpers are the external test's own declarations (functions,
	// types with their methods, constants) that the copied code uses,
	// copied into the driver file under a name of their own (see
	// helperName): puddle's tests build every pool with their own
	// createConstructor.
	helpers []helperDecl
	// files: the source of each file a copied node is in.
	files map[string][]byte
	// leakChecks: the lines of the test's deferred or t.Cleanup checks
	// of the process's goroutines, left out (testFunc.leakCheck).
	leakChecks []int
}

// A helperDecl is a declaration of the external test copied with a setup.
type helperDecl struct {
	obj  types.Object
	node ast.Node // *ast.FuncDecl, or the *ast.GenDecl of a type or constant
	// methods: a type's method declarations.
	methods []*ast.FuncDecl
}

// helperPrefix starts the name of an external test's declaration copied
// into the driver file, which is in the package under test: its own
// names could clash with the package's.
const helperPrefix = "pecanvetx_"

// aliasPrefix names the driver file's alias of *T for a type T that a
// setup's variable shadows. Of *T, not T: go/types (1.26) panics on an
// alias whose right-hand side is a bare name declared by the package when
// the driver's file is checked against the package's scope (typeCheck).
const aliasPrefix = "pecanvetT_"

// helperName is the name obj, a declaration of the external test, has
// in the driver file.
func helperName(obj types.Object) string { return helperPrefix + obj.Name() }

type cleanupItem struct {
	node ast.Node
	call bool // a function value: call it
}

// cleanupNames are the methods whose call after a test's calls ends its
// receiver's life: the driver copies them so that a started pool stops.
var cleanupNames = map[string]bool{"Stop": true, "Close": true, "Shutdown": true, "Release": true, "Cancel": true, "Wait": true, "Quit": true, "Drain": true, "Done": true}

// endOtherNames are the methods whose argument-free call, after a test's
// calls, ends the life of another value its setup made: a server the
// client under test talks to. Not Wait, Done or Drain: on another value
// they wait for work the driver's calls may never start.
var endOtherNames = map[string]bool{"Stop": true, "Close": true, "Shutdown": true, "Release": true, "Cancel": true}

// endOther is st's trailing `x.Stop()` (or Close…, endOtherNames, with
// no arguments, or deferred) when x is a variable the copied setup
// declared other than the receiver. The driver runs its setup again in
// each recording and replay: a server it started and never stopped
// holds its port, and the next setup's listen fails ("address already
// in use", simonvetter/modbus's TCP server), so every driver of the
// client failed before its calls.
func (s *setup) endOther(st ast.Stmt, recv types.Object) *ast.CallExpr {
	var call *ast.CallExpr
	switch st := st.(type) {
	case *ast.DeferStmt:
		call = st.Call
	case *ast.ExprStmt:
		call, _ = ast.Unparen(st.X).(*ast.CallExpr)
	}
	if call == nil || len(call.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !endOtherNames[sel.Sel.Name] {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	if v, ok := s.info.Uses[id].(*types.Var); ok && v != recv && slices.Contains(s.vars, v) {
		return call
	}
	return nil
}

// testFunc is one test or example of a test variant of the package.
type testFunc struct {
	p   *packages.Package
	fd  *ast.FuncDecl
	src []byte
	// calls of the package's methods on local variables of the test's
	// own scope, in order.
	calls []recvCall
	// cyclic: the paths of p's imports that import the package under
	// test, which its driver file cannot import.
	cyclic map[string]bool
}

// importsOf says which of p's imports import path, directly or not.
func importsOf(p *packages.Package, path string) map[string]bool {
	memo := map[*packages.Package]bool{}
	var dep func(q *packages.Package) bool
	dep = func(q *packages.Package) bool {
		if v, seen := memo[q]; seen {
			return v
		}
		memo[q] = false // a cycle is no path
		v := false
		for _, r := range q.Imports {
			if r.PkgPath == path || dep(r) {
				v = true
				break
			}
		}
		memo[q] = v
		return v
	}
	out := map[string]bool{}
	for ip, q := range p.Imports {
		if ip != path && dep(q) {
			out[ip] = true
		}
	}
	return out
}

type recvCall struct {
	stmt   int        // index of the top-level statement holding it
	recv   *types.Var // the receiver variable
	typ, m string     // the receiver's type name and the method
	call   *ast.CallExpr
	// iface: the variable is of an interface type of the package (New
	// returns a Bus, not an *EventBus): it stands for every type of the
	// package whose pointer implements it, asserted in the driver.
	iface *types.Interface
	pkg   *types.Package // the package under test
	// via: the embedded fields that lead from the variable to the
	// method's receiver (".poolCommon"), or "".
	via string
	// rnamed is the receiver's type (an instance, for a generic type),
	// nil for an interface.
	rnamed *types.Named
}

// promoted returns, for a method selection promoted through embedded
// fields, their path (".a.b") and the type declaring the method; "" if
// the method is the variable's type's own.
func promoted(sel *types.Selection) (string, *types.Named) {
	if sel == nil || sel.Kind() != types.MethodVal || len(sel.Index()) < 2 {
		return "", nil
	}
	t := sel.Recv()
	via := ""
	for _, i := range sel.Index()[:len(sel.Index())-1] {
		st, ok := namedOrSelf(t).Underlying().(*types.Struct)
		if !ok {
			return "", nil
		}
		f := st.Field(i)
		via += "." + f.Name()
		t = f.Type()
	}
	n := namedOf(t)
	if n == nil {
		return "", nil
	}
	return via, n
}

// namedOrSelf is T for *T, else t.
func namedOrSelf(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// is says whether c is a call on a receiver of the package's type typ:
// a T or *T, or an interface value that *T implements.
func (c *recvCall) is(typ string) bool {
	if c.iface == nil {
		return c.typ == typ
	}
	tn, ok := c.pkg.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		return false
	}
	return types.Implements(types.NewPointer(tn.Type()), c.iface)
}

// testFuncs lists the tests (TestX(t *testing.T)) and examples of the
// test variants of the package path, with their calls of its methods.
func testFuncs(path string, tests []*packages.Package) []*testFunc {
	var out []*testFunc
	for _, p := range tests {
		if p == nil || p.TypesInfo == nil {
			continue
		}
		cyclic := importsOf(p, path)
		for i, f := range p.Syntax {
			if i >= len(p.CompiledGoFiles) || !strings.HasSuffix(p.CompiledGoFiles[i], "_test.go") {
				continue
			}
			var src []byte
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || fd.Body == nil || !(strings.HasPrefix(fd.Name.Name, "Test") || strings.HasPrefix(fd.Name.Name, "Example")) {
					continue
				}
				if src == nil {
					var err error
					if src, err = os.ReadFile(p.CompiledGoFiles[i]); err != nil {
						break
					}
				}
				tf := &testFunc{p: p, fd: fd, src: src, cyclic: cyclic}
				scope := p.TypesInfo.Scopes[fd.Type]
				for k, st := range fd.Body.List {
					ast.Inspect(st, func(n ast.Node) bool {
						call, ok := n.(*ast.CallExpr)
						if !ok {
							return true
						}
						sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
						if !ok {
							return true
						}
						id, ok := ast.Unparen(sel.X).(*ast.Ident)
						if !ok {
							return true
						}
						v, ok := p.TypesInfo.Uses[id].(*types.Var)
						if !ok || v.Parent() != scope || v.IsField() {
							return true
						}
						fn, _ := typeutil.Callee(p.TypesInfo, call).(*types.Func)
						if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path {
							return true
						}
						recv := fn.Type().(*types.Signature).Recv()
						n0 := namedOf(v.Type())
						if recv == nil || n0 == nil || n0.Obj().Pkg() == nil || n0.Obj().Pkg().Path() != path {
							return true
						}
						rc := recvCall{stmt: k, recv: v, typ: n0.Obj().Name(), m: fn.Name(), call: call, pkg: fn.Pkg(), rnamed: n0}
						if via, t := promoted(p.TypesInfo.Selections[sel]); via != "" {
							// A method promoted from an embedded type (ants's
							// Pool embeds *poolCommon, whose Tune the tests
							// call on a Pool): the receiver is the field.
							rc.typ, rc.via, rc.rnamed = t.Obj().Name(), via, t
						}
						if it, ok := n0.Underlying().(*types.Interface); ok {
							rc.iface, rc.rnamed = it, nil
						}
						tf.calls = append(tf.calls, rc)
						return true
					})
				}
				if len(tf.calls) > 0 {
					out = append(out, tf)
				}
			}
		}
	}
	return out
}

// findSetup returns the setup of the first test that calls both methods
// of pr on one receiver, else of the first that calls one of them, or nil.
//
// Else, when no test calls either method, it is the construction of the
// first test that builds a receiver and calls any of its methods, cut
// before that call: a type its own tests construct is built as they
// build it (ants's MultiPool needs a valid load-balancing strategy, and
// the first constant call the tests make, NewMultiPool(-1, 10, 8), is the
// one that returns an error and a nil pool).
func findSetup(path string, tfs []*testFunc, pr *pair) *setup {
	var one *setup
	for _, tf := range tfs {
		s, both := tf.setupFor(path, pr, false)
		if s == nil {
			continue
		}
		if both {
			return s
		}
		if one == nil {
			one = s
		}
	}
	if one != nil {
		return one
	}
	for _, tf := range tfs {
		if s, _ := tf.setupFor(path, pr, true); s != nil {
			return s
		}
	}
	return nil
}

// setupFor cuts tf before its first call of either method of pr (with
// anyMethod, of any method); nil if it makes none on a variable of its
// own scope, or if the statements before it use what a driver cannot (an
// external test's own declarations). both says the test calls both
// methods on the receiver.
func (tf *testFunc) setupFor(path string, pr *pair, anyMethod bool) (*setup, bool) {
	var first *recvCall
	for i := range tf.calls {
		c := &tf.calls[i]
		if (anyMethod || c.m == pr.m0 || c.m == pr.m1) && c.is(pr.typ) && !inFuncLit(tf.fd.Body.List[c.stmt], c.call) {
			first = c
			break
		}
	}
	if first == nil {
		return nil, false
	}
	info := tf.p.TypesInfo
	scope := info.Scopes[tf.fd.Type]
	cut := tf.fd.Body.List[first.stmt]
	s := &setup{test: tf.fd.Name.Name, self: path, cut: cut.Pos(), fset: tf.p.Fset, info: info, calls: map[string]*ast.CallExpr{},
		files: map[string][]byte{tf.p.Fset.Position(tf.fd.Pos()).Filename: tf.src}}
	if anyMethod {
		// Its calls of the pair, if any, pass what the driver cannot
		// (an external test's own function): only the construction.
		s.before = first.m
	}
	pos := tf.p.Fset.Position(cut.Pos())
	s.at = filepath.Base(pos.Filename) + ":" + strconv.Itoa(pos.Line)
	if params := tf.fd.Type.Params.List; len(params) == 1 && len(params[0].Names) == 1 {
		if name := params[0].Names[0].Name; name != "t" && name != "_" {
			s.tname = name
		}
	}
	// usable: node refers to nothing the driver lacks. Locals must be
	// declared at the test's top level before the cut, or inside node.
	// With copy, the external test's own declarations it uses are copied
	// (when they are usable themselves, recursively) and added to
	// s.helpers; else they make node unusable.
	helpers := map[types.Object]bool{}
	var usableIn func(node ast.Node, copy bool, add map[types.Object]*helperDecl) bool
	usableIn = func(node ast.Node, copy bool, add map[types.Object]*helperDecl) bool {
		ok := true
		ast.Inspect(node, func(n ast.Node) bool {
			id, isID := n.(*ast.Ident)
			if !isID || !ok {
				return ok
			}
			obj := info.Uses[id]
			if obj == nil || obj.Parent() == nil {
				return true // a field, a method, a definition
			}
			if pn, isPkg := obj.(*types.PkgName); isPkg {
				// The driver file imports it (render), unless it
				// imports the package under test: the driver file is
				// in that package, and the import would be a cycle
				// (go-quartz's quartz tests build every job with its
				// job package, which imports quartz).
				if tf.cyclic[pn.Imported().Path()] {
					ok = false
				}
				return true
			}
			if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
				if strings.HasSuffix(obj.Pkg().Path(), "_test") && !helpers[obj] && add[obj] == nil {
					// The external test's own: not in the driver's
					// package, unless copied.
					d := tf.helperDecl(obj)
					if !copy || d == nil {
						ok = false
						return true
					}
					add[obj] = d
					for _, n := range d.nodes() {
						ok = ok && usableIn(n, true, add)
					}
				}
				return true
			}
			if obj.Parent() == types.Universe {
				return true
			}
			inside := node.Pos() <= obj.Pos() && obj.Pos() < node.End()
			if !inside && !(obj.Parent() == scope && obj.Pos() < cut.Pos()) {
				ok = false
			}
			return true
		})
		return ok
	}
	usable := func(node ast.Node) bool { return usableIn(node, false, nil) }
	// usableCopying is usable, copying the external test's helpers.
	usableCopying := func(node ast.Node) bool {
		add := map[types.Object]*helperDecl{}
		if !usableIn(node, true, add) {
			return false
		}
		var objs []types.Object
		for obj := range add {
			objs = append(objs, obj)
		}
		sort.Slice(objs, func(i, j int) bool { return objs[i].Pos() < objs[j].Pos() })
		for _, obj := range objs {
			helpers[obj] = true
			s.helpers = append(s.helpers, *add[obj])
		}
		return true
	}
	isCall := func(st ast.Stmt, recvName, method string) (*ast.CallExpr, bool) {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return nil, false
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return nil, false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		return call, ok && id.Name == recvName && (method == "" || sel.Sel.Name == method)
	}
	tname := "t"
	if s.tname != "" {
		tname = s.tname
	}
	for _, st := range tf.fd.Body.List[:first.stmt] {
		if !usable(st) {
			if _, isExpr := st.(*ast.ExprStmt); isExpr {
				// A call of the external test's own helper, declaring
				// nothing: an assertion (pond's assertEqual(t, 0,
				// pool.RunningWorkers())) that would cost the whole
				// setup. Left out, and said so in the driver.
				s.dropped = append(s.dropped, s.fset.Position(st.Pos()).Line)
				continue
			}
			if !usableCopying(st) {
				return nil, false
			}
		}
		if _, isGo := st.(*ast.GoStmt); isGo {
			// The test runs the receiver concurrently itself: the
			// recorded run covers it, and the setup is not sequential.
			return nil, false
		}
		if call, ok := isCall(st, tname, ""); ok && info.Uses[ast.Unparen(call.Fun).(*ast.SelectorExpr).X.(*ast.Ident)] != nil {
			switch ast.Unparen(call.Fun).(*ast.SelectorExpr).Sel.Name {
			case "Parallel", "Helper":
				continue // the driver runs alone; its helpers are not the test's
			case "Cleanup":
				if len(call.Args) == 1 {
					if tf.leakCheck(call.Args[0]) {
						s.leakChecks = append(s.leakChecks, s.fset.Position(st.Pos()).Line)
						continue
					}
					s.cleanup = append(s.cleanup, cleanupItem{node: call.Args[0], call: true})
					continue
				}
			}
		}
		if d, ok := st.(*ast.DeferStmt); ok {
			if tf.leakCheck(d.Call) {
				s.leakChecks = append(s.leakChecks, s.fset.Position(st.Pos()).Line)
				continue
			}
			s.cleanup = append(s.cleanup, cleanupItem{node: d.Call})
			continue
		}
		if isSubtests(info, st, tname) && !mentionsType(info, st, path, pr.typ) {
			// The test's own checks, not the receiver's setup: each of
			// the driver's cases ran them again, and with a t.Parallel
			// in them the driver paused, so that no recording process
			// could vouch for it (ttlcache's Test_Cache_set: 16
			// parallel subtests in each of 14 drivers, every one
			// recorded again alone).
			s.subtests = append(s.subtests, s.fset.Position(st.Pos()).Line)
			continue
		}
		s.stmts = append(s.stmts, st)
		s.vars = append(s.vars, declared(info, st)...)
	}
	// What ends the receiver's life after the calls: its deferred calls
	// and its Stop, Close… (not the pair's own methods).
	for _, st := range tf.fd.Body.List[first.stmt:] {
		var call *ast.CallExpr
		if d, ok := st.(*ast.DeferStmt); ok {
			if c, isRecv := isCall(&ast.ExprStmt{X: d.Call}, first.recv.Name(), ""); isRecv {
				call = c
			}
		} else if c, isRecv := isCall(st, first.recv.Name(), ""); isRecv {
			if name := ast.Unparen(c.Fun).(*ast.SelectorExpr).Sel.Name; cleanupNames[name] && name != pr.m0 && name != pr.m1 {
				call = c
			}
		}
		if call != nil && info.Uses[ast.Unparen(call.Fun).(*ast.SelectorExpr).X.(*ast.Ident)] == first.recv && usable(call) {
			s.cleanup = append(s.cleanup, cleanupItem{node: call})
			continue
		}
		if c := s.endOther(st, first.recv); c != nil && usable(c) {
			s.cleanup = append(s.cleanup, cleanupItem{node: c})
		}
	}
	// The arguments: the first call of each method on the receiver (of
	// a method called twice, the second call's for the second).
	for _, c := range tf.calls {
		if c.recv != first.recv || (c.m != pr.m0 && c.m != pr.m1) || c.call.Ellipsis.IsValid() || s.before != "" {
			continue
		}
		ok := true
		for _, a := range c.call.Args {
			ok = ok && (usable(a) || usableCopying(a))
		}
		switch {
		case !ok:
		case s.calls[c.m] == nil:
			s.calls[c.m] = c.call
		case pr.m0 == pr.m1 && s.second == nil:
			s.second = c.call
		}
	}
	// The variables nothing copied reads are marked used. Being assigned
	// is no use to the compiler: simonfxr/pubsub's TestSubscribe sets
	// `fired` in its subscriber and reads it after the cut, and every
	// driver copying it was "declared and not used: fired" and built
	// without the setup.
	used := map[types.Object]bool{}
	mark := func(n ast.Node) {
		assigned := map[*ast.Ident]bool{}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok {
						assigned[id] = true
					}
				}
			case *ast.IncDecStmt:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					assigned[id] = true
				}
			case *ast.Ident:
				if !assigned[n] {
					used[info.Uses[n]] = true
				}
			}
			return true
		})
	}
	for _, st := range s.stmts {
		mark(st)
	}
	for _, c := range s.cleanup {
		mark(c.node)
	}
	for _, c := range s.calls {
		mark(c)
	}
	if s.second != nil {
		mark(s.second)
	}
	var unused []string
	for _, v := range s.vars {
		if !used[v] && v != first.recv {
			unused = append(unused, v.Name())
		}
	}
	s.unused = unused
	if s.before == "" && s.calls[first.m] == nil && len(first.call.Args) > 0 {
		return nil, false // its arguments are the test's own; another test may do
	}
	if first.rnamed != nil {
		for i := 0; i < first.rnamed.TypeArgs().Len(); i++ {
			s.targs = append(s.targs, first.rnamed.TypeArgs().At(i))
		}
	} else if tn, ok := first.pkg.Scope().Lookup(pr.typ).(*types.TypeName); ok {
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams() != nil {
			// An interface value the driver would assert to *T[?]:
			// nothing says which instance it holds.
			return nil, false
		}
	}
	s.recv = first.recv.Name()
	if first.via != "" {
		s.recv += first.via
		if sel := info.Selections[ast.Unparen(first.call.Fun).(*ast.SelectorExpr)]; sel != nil {
			path := sel.Index()
			st, _ := namedOrSelf(sel.Recv()).Underlying().(*types.Struct)
			for k, i := range path[:len(path)-1] {
				if st == nil {
					break
				}
				ft := st.Field(i).Type()
				if k == len(path)-2 {
					if _, ptr := types.Unalias(ft).(*types.Pointer); !ptr {
						s.recv = "&" + s.recv
					}
				}
				st, _ = namedOrSelf(ft).Underlying().(*types.Struct)
			}
		}
	} else if first.iface != nil {
		// Asserted: a test that builds another implementation panics
		// in the sequential calls, and the driver skips saying so.
		t := pr.typ
		for _, v := range s.vars {
			if v.Name() == pr.typ {
				// pond's `pool := NewPool(10)` of type Pool: *pool would
				// name the variable. The file declares an alias of *T
				// (emit's aliased).
				t = aliasPrefix + pr.typ
				s.alias = pr.typ
			}
		}
		if s.alias == "" {
			t = "*" + t
		}
		s.recv += ".(" + t + ")"
	} else if _, ptr := types.Unalias(first.recv.Type()).(*types.Pointer); !ptr {
		s.recv = "&" + s.recv
	}
	return s, s.calls[pr.m0] != nil && s.calls[pr.m1] != nil
}

// helperDecl finds the declaration of obj, a function, type or constant
// of tf's package (an external test), with a type's methods, or a
// variable set from a constant that nothing sets again (go-quartz's
// worldtimeapiURL), whose copy holds the same value; nil for anything
// else (another variable: its copy would be another variable).
func (tf *testFunc) helperDecl(obj types.Object) *helperDecl {
	switch obj := obj.(type) {
	case *types.Func, *types.TypeName, *types.Const:
	case *types.Var:
		if !tf.constVar(obj) {
			return nil
		}
	default:
		return nil
	}
	var d *helperDecl
	for _, f := range tf.p.Syntax {
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil && tf.p.TypesInfo.Defs[decl.Name] == obj {
					d = &helperDecl{obj: obj, node: decl}
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						if tf.p.TypesInfo.Defs[spec.Name] == obj {
							d = &helperDecl{obj: obj, node: decl}
						}
					case *ast.ValueSpec:
						for _, id := range spec.Names {
							if tf.p.TypesInfo.Defs[id] == obj {
								d = &helperDecl{obj: obj, node: decl}
							}
						}
					}
				}
			}
		}
	}
	if d == nil {
		return nil
	}
	if gd, ok := d.node.(*ast.GenDecl); ok && len(gd.Specs) != 1 {
		return nil // a group: its other names would come along
	}
	if tn, ok := obj.(*types.TypeName); ok {
		for _, f := range tf.p.Syntax {
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil {
					if fn, ok := tf.p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						if n := namedOf(fn.Type().(*types.Signature).Recv().Type()); n != nil && n.Obj() == tn {
							d.methods = append(d.methods, fd)
						}
					}
				}
			}
		}
	}
	return d
}

// constVar reports whether v, a package-level variable of tf's package,
// is declared alone with a constant value and never set again (assigned,
// incremented or its address taken) in the package.
func (tf *testFunc) constVar(v *types.Var) bool {
	info := tf.p.TypesInfo
	declared, set := false, false
	for _, f := range tf.p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			var targets []ast.Expr
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if info.Defs[id] == v {
						declared = len(n.Names) == 1 && len(n.Values) == 1 && info.Types[n.Values[i]].Value != nil
					}
				}
			case *ast.AssignStmt:
				targets = n.Lhs
			case *ast.IncDecStmt:
				targets = []ast.Expr{n.X}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					targets = []ast.Expr{n.X}
				}
			}
			for _, e := range targets {
				if id, ok := ast.Unparen(e).(*ast.Ident); ok && info.Uses[id] == v {
					set = true
				}
			}
			return true
		})
	}
	return declared && !set
}

// nodes are the declarations d copies.
func (d *helperDecl) nodes() []ast.Node {
	out := []ast.Node{d.node}
	for _, m := range d.methods {
		out = append(out, m)
	}
	return out
}

// source is the text of the file node is in.
func (s *setup) source(node ast.Node) []byte {
	name := s.fset.Position(node.Pos()).Filename
	if src, ok := s.files[name]; ok {
		return src
	}
	src, _ := os.ReadFile(name)
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	s.files[name] = src
	return src
}

// declared lists the variables a top-level statement declares.
func declared(info *types.Info, st ast.Stmt) []*types.Var {
	var out []*types.Var
	add := func(id *ast.Ident) {
		if v, ok := info.Defs[id].(*types.Var); ok && id.Name != "_" {
			out = append(out, v)
		}
	}
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					add(id)
				}
			}
		}
	case *ast.DeclStmt:
		if gd, ok := st.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, spec := range gd.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					add(id)
				}
			}
		}
	}
	return out
}

// renderStmt writes st, one of the test's statements copied into the
// setup, as render does, with each return of the test (not of a function
// literal in it) made a skip: the test ends there without calling the
// methods, and so does the driver. A bare return does not compile in the
// case function, which returns a pecanvetCase: logrus's
// TestNestedLoggingReportsCorrectCaller starts with
// `if skipReportCaller(t) { return }`, and its setup was dropped.
func (g *gen) renderStmt(s *setup, st ast.Stmt) string {
	return g.renderWith(s, st, true)
}

// skipReturn replaces a test's return in its copied setup (renderStmt).
const skipReturn = `t.Skip("pecanvet driver: the test returns here, before its calls")`

// render writes node as the driver's source: the test's own text, with
// the qualifier of the package under test dropped (an external test's)
// and other packages named by the driver file's imports.
func (g *gen) render(s *setup, node ast.Node) string {
	return g.renderWith(s, node, false)
}

func (g *gen) renderWith(s *setup, node ast.Node, returns bool) string {
	tf := s.fset.File(node.Pos())
	if tf == nil {
		return ""
	}
	src := s.source(node)
	start, end := tf.Offset(node.Pos()), tf.Offset(node.End())
	if len(src) < end {
		return ""
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	copied := map[types.Object]bool{}
	for _, h := range s.helpers {
		copied[h.obj] = true
	}
	var lits []*ast.FuncLit
	ast.Inspect(node, func(n ast.Node) bool {
		if fl, ok := n.(*ast.FuncLit); ok {
			lits = append(lits, fl)
		}
		if ret, ok := n.(*ast.ReturnStmt); ok && returns && len(ret.Results) == 0 {
			inLit := false
			for _, fl := range lits {
				inLit = inLit || fl.Pos() <= ret.Pos() && ret.End() <= fl.End()
			}
			if !inLit {
				edits = append(edits, edit{tf.Offset(ret.Pos()), tf.Offset(ret.End()), skipReturn})
			}
			return true
		}
		if lit, ok := n.(*ast.CompositeLit); ok {
			// A positional literal of a struct with unexported fields
			// (haxmap's internal test: &Animal{"cat"}) is written keyed:
			// the driver is type-checked in a copy of the package,
			// whose unexported fields go/types then takes for
			// another package's (the build itself would accept it).
			for i, f := range positionalFields(s.info, lit) {
				at := tf.Offset(lit.Elts[i].Pos())
				edits = append(edits, edit{at, at, f + ": "})
			}
			return true
		}
		if id, ok := n.(*ast.Ident); ok {
			obj := s.info.Uses[id]
			if obj == nil {
				obj = s.info.Defs[id]
			}
			if copied[obj] {
				edits = append(edits, edit{tf.Offset(id.Pos()), tf.Offset(id.End()), helperName(obj)})
			}
			return true
		}
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		pn, ok := s.info.Uses[id].(*types.PkgName)
		if !ok {
			return true
		}
		from, to := tf.Offset(id.Pos()), tf.Offset(id.End())
		if pn.Imported().Path() == s.self || pn.Imported().Path() == g.pkg.Path() {
			edits = append(edits, edit{from, to + 1, ""}) // "pkg." goes
		} else {
			edits = append(edits, edit{from, to, g.importName(pn.Imported())})
		}
		return true
	})
	// An insertion goes before a replacement at the same place (a key
	// before a renamed helper).
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].from != edits[j].from {
			return edits[i].from < edits[j].from
		}
		return edits[i].from == edits[i].to && edits[j].from != edits[j].to
	})
	var b strings.Builder
	at := start
	for _, e := range edits {
		b.Write(src[at:e.from])
		b.WriteString(e.text)
		at = e.to
	}
	b.Write(src[at:end])
	return b.String()
}

// callOf is the test's call of method m (its second, if asked and made),
// or nil (also for no setup).
func (s *setup) callOf(m string, second bool) *ast.CallExpr {
	if s == nil {
		return nil
	}
	if second && s.second != nil {
		return s.second
	}
	return s.calls[m]
}

// inFuncLit reports whether call lies inside a function literal of st (a
// goroutine's or a subtest's body, not the test's own sequence).
func inFuncLit(st ast.Stmt, call *ast.CallExpr) bool {
	in := false
	ast.Inspect(st, func(n ast.Node) bool {
		if fl, ok := n.(*ast.FuncLit); ok && fl.Pos() <= call.Pos() && call.End() <= fl.End() {
			in = true
		}
		return !in
	})
	return in
}

// positionalFields returns the field names of the elements of lit, a
// positional struct literal with an unexported field; nil otherwise.
func positionalFields(info *types.Info, lit *ast.CompositeLit) []string {
	if len(lit.Elts) == 0 {
		return nil
	}
	if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); keyed {
		return nil
	}
	tv, ok := info.Types[lit]
	if !ok {
		return nil
	}
	st, ok := tv.Type.Underlying().(*types.Struct)
	if !ok || st.NumFields() != len(lit.Elts) {
		return nil
	}
	names := make([]string, st.NumFields())
	unexported := false
	for i := range names {
		f := st.Field(i)
		if f.Name() == "_" {
			return nil // a blank field cannot be keyed
		}
		names[i] = f.Name()
		unexported = unexported || !f.Exported()
	}
	if !unexported {
		return nil
	}
	return names
}

// constructedWhere says why no test's setup builds a receiver of the
// package's type typ: no test or example constructs one (and where the
// package itself does, if it does), or the tests construct one only where
// a driver cannot copy it. A driver whose receiver then panics says so
// when it skips, instead of a bare "no usable receiver" (cockroach69408's
// blockingBuffer: its test calls runBlockingBuffer, which builds one
// with a callback; its zero value panics in Push).
func constructedWhere(p *packages.Package, tests []*packages.Package, typ string) string {
	tn, ok := p.Types.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		return ""
	}
	// builds finds, in the files of q that test selects, the first
	// expression that yields a T or *T: a literal, new(T), or a call of
	// a function of the package returning one.
	builds := func(q *packages.Package, test bool) string {
		for i, f := range q.Syntax {
			if i >= len(q.CompiledGoFiles) || strings.HasSuffix(q.CompiledGoFiles[i], "_test.go") != test {
				continue
			}
			found := ""
			ast.Inspect(f, func(n ast.Node) bool {
				if found != "" {
					return false
				}
				var t types.Type
				switch n := n.(type) {
				case *ast.CompositeLit:
					t = q.TypesInfo.TypeOf(n)
				case *ast.CallExpr:
					if fn, _ := typeutil.Callee(q.TypesInfo, n).(*types.Func); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == p.PkgPath {
						t = q.TypesInfo.TypeOf(n)
						if tup, ok := t.(*types.Tuple); ok && tup.Len() > 0 {
							t = tup.At(0).Type()
						}
					} else if b, ok := typeutil.Callee(q.TypesInfo, n).(*types.Builtin); ok && b.Name() == "new" {
						t = q.TypesInfo.TypeOf(n)
					}
				}
				if t == nil {
					return true
				}
				if nt := namedOf(t); nt != nil && nt.Obj().Name() == tn.Name() && nt.Obj().Pkg() != nil && nt.Obj().Pkg().Path() == p.PkgPath {
					pos := q.Fset.Position(n.Pos())
					found = filepath.Base(pos.Filename) + ":" + strconv.Itoa(pos.Line)
					for _, d := range f.Decls {
						if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= n.Pos() && n.End() <= fd.End() {
							found = fd.Name.Name + " (" + found + ")"
						}
					}
				}
				return true
			})
			if found != "" {
				return found
			}
		}
		return ""
	}
	for _, q := range tests {
		if q == nil || q.TypesInfo == nil {
			continue
		}
		if at := builds(q, true); at != "" {
			return "the tests construct " + typ + " (" + at + ") only where a driver cannot copy it (inside a goroutine or function literal, or with what only the tests have)"
		}
	}
	why := "no test or example constructs " + typ
	if p.TypesInfo != nil {
		if at := builds(p, false); at != "" {
			why += " (the package builds one in " + at + ", which no driver copies)"
		}
	}
	return why
}

// isSubtests reports whether st runs subtests and does nothing else: a
// call tname.Run(…), or a loop whose body is such calls and copies of
// the loop's variables (tc := tc).
func isSubtests(info *types.Info, st ast.Stmt, tname string) bool {
	isRun := func(st ast.Stmt) bool {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Run" {
			return false
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		return ok && id.Name == tname && info.Uses[id] != nil
	}
	var body *ast.BlockStmt
	switch st := st.(type) {
	case *ast.ExprStmt:
		return isRun(st)
	case *ast.RangeStmt:
		body = st.Body
	case *ast.ForStmt:
		body = st.Body
	default:
		return false
	}
	runs := 0
	for _, b := range body.List {
		if isRun(b) {
			runs++
			continue
		}
		as, ok := b.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
			return false
		}
		for i := range as.Lhs {
			l, ok1 := as.Lhs[i].(*ast.Ident)
			r, ok2 := as.Rhs[i].(*ast.Ident)
			if !ok1 || !ok2 || l.Name != r.Name {
				return false
			}
		}
	}
	return runs > 0
}

// mentionsType reports whether a variable declared outside node that
// node uses is of the package's type typ or a pointer to it: a subtest
// that does something with the test's receiver of the driven type is
// kept (one that builds its own is not).
func mentionsType(info *types.Info, node ast.Node, path, typ string) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || node.Pos() <= v.Pos() && v.Pos() < node.End() {
			return true
		}
		t := v.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if nt, ok := t.(*types.Named); ok && nt.Obj().Name() == typ && nt.Obj().Pkg() != nil && strings.TrimSuffix(nt.Obj().Pkg().Path(), "_test") == path {
			found = true
		}
		return true
	})
	return found
}

// leakCheck reports whether node, a test's deferred call or the function
// it hands t.Cleanup, checks the process's goroutines: a function (not a
// method: that ends the value it is called on) of a leak-check package
// (goleak, leaktest, grpc's leakcheck: leakPackage), or of the test's
// package reading every goroutine (runtime.Stack, runtime.NumGoroutine)
// directly or through the package's functions; of defer leakCheck(t)(),
// the function whose result is deferred. It must be handed the test's T
// only (and, of another package's check, its options): a helper handed
// what the test built may end it. A function literal calling one and
// nothing else is one. A driver leaves it out: it holds nothing to give
// back, and in a driver it sees the driver's own goroutines. cmux's
// TestTimeout defers one that snapshots every goroutine's stack and polls
// for 5 s until each looks as it did; copied into each case's cleanup, it
// saw a replay's goroutines held at the schedule's gates change and
// waited out its 5 s, past the driver's own 5 s bound of the case: every
// driver replay there diverged at that bound, and one failed by the
// "leak".
func (tf *testFunc) leakCheck(node ast.Node) bool {
	x := ast.Unparen(node.(ast.Expr))
	if lit, ok := x.(*ast.FuncLit); ok && len(lit.Body.List) == 1 {
		// func() { leakCheck(t) }: a literal that does more may end
		// more than goroutines.
		if es, ok := lit.Body.List[0].(*ast.ExprStmt); ok {
			x = es.X
		}
	}
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	if inner, ok := ast.Unparen(call.Fun).(*ast.CallExpr); ok {
		call = inner
	}
	fn, _ := typeutil.Callee(tf.p.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Type().(*types.Signature).Recv() != nil {
		return false // a method ends the value it is called on
	}
	// Handed the test's T and the check's own options only: a helper
	// handed what the test built (a server) may end it too.
	for _, a := range call.Args {
		t := tf.p.TypesInfo.TypeOf(a)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "testing" && (n.Obj().Pkg() != fn.Pkg() || fn.Pkg() == tf.p.Types) {
			return false
		}
	}
	return tf.readsGoroutines(fn, 3, map[*types.Func]bool{})
}

// leakPackage matches the last element of a leak-check package's path
// (go.uber.org/goleak, github.com/fortytw2/leaktest, grpc's
// internal/leakcheck), not a leaky bucket's.
var leakPackage = regexp.MustCompile(`^(go)?leak(test|check)?$`)

// readsGoroutines reports whether fn is a leak check (see leakCheck),
// looking depth calls deep into the functions of tf's package.
func (tf *testFunc) readsGoroutines(fn *types.Func, depth int, seen map[*types.Func]bool) bool {
	if fn == nil || fn.Pkg() == nil || seen[fn] || depth == 0 {
		return false
	}
	seen[fn] = true
	path := fn.Pkg().Path()
	if leakPackage.MatchString(path[strings.LastIndex(path, "/")+1:]) {
		return true
	}
	if path == "runtime" && (fn.Name() == "Stack" || fn.Name() == "NumGoroutine") {
		return true
	}
	if fn.Pkg() != tf.p.Types {
		return false
	}
	for _, f := range tf.p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || tf.p.TypesInfo.Defs[fd.Name] != fn {
				continue
			}
			found := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && !found {
					callee, _ := typeutil.Callee(tf.p.TypesInfo, c).(*types.Func)
					found = tf.readsGoroutines(callee, depth-1, seen)
				}
				return !found
			})
			return found
		}
	}
	return false
}
