package symbolic

import (
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"
)

// Limits that keep the analysis fast and its output bounded.
const (
	// MaxFlat bounds a flattened sequence: once it holds this many events,
	// further calls are left as OpCall events instead of being spliced.
	MaxFlat = 2048
	// MaxFactEvents bounds the events of an exported summary (a fact).
	MaxFactEvents = 128
)

// Analyzer computes, for every function of the package, its symbolic event
// sequence; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:       "pecansymbolic",
	Doc:        "compute symbolic event sequences (accesses, locks, goroutines, channels, sync) of every function, for pecanvet's candidate search",
	URL:        "https://github.com/pecanvet/pecanvet/tree/main/passes/symbolic",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Summary)},
	Run:        run,
}

// Result is the analyzer's result: the symbolic sequences of the package's
// source functions. Its methods are safe for concurrent use.
type Result struct {
	Pkg  *ssa.Package
	Fset *token.FileSet
	// HasConcurrency is false when the package has no go statements, no
	// channel operations and does not import sync or sync/atomic (nor
	// calls an errgroup-style Go method): the fast path, on which
	// pecanvet does no dynamic work for the package.
	HasConcurrency bool
	// Funcs holds every source function (buildssa's SrcFuncs: declared
	// functions and methods, then their closures), in that order.
	Funcs []*Func
	// CallGraph has the package's static call edges between functions
	// with bodies in this package (what Flat splices).
	CallGraph *callgraph.Graph

	byFn  map[*ssa.Function]*Func
	byObj map[*types.Func]*Func

	mu sync.Mutex // guards Func.flat and flat construction

	joins sync.Map // *ssa.Go → its join channel's variable (*ssa.Alloc, nil if none): Joined's memo
}

// Func is one function's symbolic information.
type Func struct {
	Fn *ssa.Function
	// Events is the function's own sequence in block order (blocks by
	// index, instructions in order). Calls appear as OpCall events (with
	// Callee set when static); deferred operations appear at each
	// RunDefers, in reverse registration order, marked Deferred.
	Events []Event
	// Acquires are the locks the function certainly holds when it
	// returns, acquired by it (a lock helper such as func (t *T) lock()
	// { t.mu.Lock() }); Releases the locks it may release without having
	// acquired them. Calls apply both to the caller's lockset.
	Acquires []Held
	Releases []string
	// Spawns reports whether Flat(Fn) may contain OpGo events: the
	// function or an in-package callee has a go statement.
	Spawns bool

	r          *Result
	state      uint8 // 0 new, 1 computing, 2 done
	blockBase  []int32
	numInstrs  int32
	reachOnce  sync.Once
	reach      [][]uint64 // block → blocks reachable by one or more edges
	flat       *flatSeq
	flatActive bool
}

// Func returns the symbolic information of fn (a source function of the
// package, or an instantiation or wrapper of one), or nil.
func (r *Result) Func(fn *ssa.Function) *Func {
	if f := r.byFn[fn]; f != nil {
		return f
	}
	if fn == nil {
		return nil
	}
	if o := fn.Origin(); o != nil && o != fn {
		if f := r.byFn[o]; f != nil {
			return f
		}
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj != nil {
		return r.byObj[obj.Origin()]
	}
	return nil
}

// Site renders an event's site: "file:line:col" of Pos, followed by
// " via EXT" for an event from another package's summary.
func (r *Result) Site(e *Event) string {
	s := r.Fset.Position(e.Pos).String()
	if e.Ext != "" {
		s += " via " + e.Ext
	}
	return s
}

func run(pass *analysis.Pass) (any, error) {
	in := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	r := &Result{
		Pkg:   in.Pkg,
		Fset:  pass.Fset,
		byFn:  make(map[*ssa.Function]*Func, len(in.SrcFuncs)),
		byObj: make(map[*types.Func]*Func),
	}
	for _, fn := range in.SrcFuncs {
		f := &Func{Fn: fn, r: r}
		r.Funcs = append(r.Funcs, f)
		r.byFn[fn] = f
		if obj, ok := fn.Object().(*types.Func); ok && obj != nil && fn.Parent() == nil {
			r.byObj[obj] = f
		}
	}
	b := newBuilder(pass, r)
	for _, f := range r.Funcs {
		b.ensure(f)
	}
	for _, imp := range pass.Pkg.Imports() {
		if p := imp.Path(); p == "sync" || p == "sync/atomic" {
			b.concurrent = true
		}
	}
	r.HasConcurrency = b.concurrent
	markSpawns(r)
	r.CallGraph = b.callGraph()
	if !isStd(pass) {
		exportFacts(pass, r)
	}
	return r, nil
}

// callGraph builds the in-package static call graph (the edges Flat splices).
func (b *builder) callGraph() *callgraph.Graph {
	g := callgraph.New(nil)
	for _, f := range b.r.Funcs {
		caller := g.CreateNode(f.Fn)
		for i := range f.Events {
			e := &f.Events[i]
			if e.fn == nil || (e.Op != OpCall) {
				continue
			}
			site, _ := e.Instr.(ssa.CallInstruction)
			callgraph.AddEdge(caller, site, g.CreateNode(e.fn.Fn))
		}
	}
	return g
}

// isStd reports whether the package belongs to the standard library. Its
// summaries are not exported: pecanvet records and replays only user code,
// so accesses inside the standard library can never be confirmed, and
// summarizing them would only add unconfirmable candidates (a goroutine
// calling fmt.Println would "race" on fmt's buffers). Decided without I/O:
// a path whose first element has no dot, with files under GOROOT/src.
func isStd(pass *analysis.Pass) bool {
	path := pass.Pkg.Path()
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return false
	}
	if pass.Module != nil && pass.Module.Path != "" && pass.Module.Path != "std" {
		return false
	}
	goroot := build.Default.GOROOT
	if goroot == "" {
		return true
	}
	src := filepath.Join(goroot, "src") + string(filepath.Separator)
	for _, file := range pass.Files {
		if tf := pass.Fset.File(file.Pos()); tf != nil {
			return strings.HasPrefix(filepath.Clean(tf.Name()), src)
		}
	}
	return false
}

// markSpawns computes Func.Spawns to a fixpoint over in-package calls.
func markSpawns(r *Result) {
	for _, f := range r.Funcs {
		for i := range f.Events {
			if f.Events[i].Op == OpGo {
				f.Spawns = true
				break
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range r.Funcs {
			if f.Spawns {
				continue
			}
			for i := range f.Events {
				if e := &f.Events[i]; e.Op == OpCall && e.fn != nil && e.fn.Spawns {
					f.Spawns, changed = true, true
					break
				}
			}
		}
	}
}
