package candidates

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sync"

	"github.com/pecanvet/pecanvet/passes/symbolic"
	"github.com/pecanvet/pecanvet/pattern"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Limits that keep the output of one package bounded.
const (
	// MaxPerPair bounds the candidates of one pair of contexts.
	MaxPerPair = 64
	// MaxPerPackage bounds the candidates of one package.
	MaxPerPackage = 2048
	// maxTuples bounds the event combinations tried for one thread of one
	// pattern under one location assignment.
	maxTuples = 64
)

// Analyzer finds candidate access anomalies; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:       "pecancandidates",
	Doc:        "find candidate access anomalies (races, atomicity and atomic-set-serializability violations) between code that may run concurrently, for pecanvet to confirm dynamically",
	URL:        "https://github.com/pecanvet/pecanvet/tree/main/passes/candidates",
	Requires:   []*analysis.Analyzer{symbolic.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	Run:        run,
}

var patternsFlag string

func init() {
	Analyzer.Flags.StringVar(&patternsFlag, "patterns", "",
		"anomaly patterns: comma-separated built-in sets (race, av, asv, all) and/or pattern files, or inline pattern text (as pecanvet predict -patterns); empty means all")
}

// Result is the analyzer's result: the candidates of the package, in a
// deterministic order, at most one per combination of sites (pattern.Key).
type Result []Candidate

// A Candidate is a possible access anomaly: a match of a pattern between
// the symbolic sequences of two contexts that may run concurrently.
type Candidate struct {
	Kind    string           // the pattern's kind: "race", "av", "asv", or a user kind
	Pattern string           // the pattern's name within its kind: "RW", "RWR", "asv-9", …
	P       *pattern.Pattern // the pattern itself
	// Sites are the positions of the matched events, in pattern order
	// (see package symbolic for which SSA instruction each is).
	Sites []token.Pos
	// Events are the matched symbolic events, in pattern order; Loc names
	// the abstract location, Ext the original site of an event from
	// another package's summary (whose Sites entry is the call).
	Events []symbolic.Event
	// Funcs are the two concurrent contexts: Funcs[0] runs the pattern's
	// first thread (T name of event 1), Funcs[1] the other. They are the
	// same context for a method paired with itself or a goroutine body
	// spawned in a loop.
	Funcs [2]Context
	// Key is pattern.Key over the sites ("file:line:col", with " via EXT"
	// for events of another package's summary): the identity of the
	// report, shared by patterns of different kinds with the same shape.
	Key string
	Why string // a human explanation: the contexts, the accesses, the locks
}

// ContextKind says what a concurrency context is.
type ContextKind uint8

// The context kinds.
const (
	// GoBody is the body of a goroutine: the callee of a go statement
	// (or of WaitGroup.Go and errgroup-style Go methods).
	GoBody ContextKind = iota + 1
	// AfterGo is the code of a function that may run after one of its go
	// statements (including the rest of a loop around it).
	AfterGo
	// Method is an exported pointer-receiver method of a named type, as if
	// called from its own goroutine.
	Method
)

func (k ContextKind) String() string {
	switch k {
	case GoBody:
		return "goroutine body"
	case AfterGo:
		return "after go"
	case Method:
		return "method"
	}
	return fmt.Sprintf("ContextKind(%d)", int(k))
}

// A Context is one side of a pair of code regions that may run
// concurrently.
type Context struct {
	Kind ContextKind
	// Func is the goroutine body (GoBody), the spawning function whose
	// flattened sequence contains the go statement (AfterGo), or the
	// method (Method). Nil for a goroutine body of another package.
	Func *ssa.Function
	// Go is the go statement, for GoBody and AfterGo.
	Go token.Pos
	// Name describes the context for people.
	Name string
}

var (
	patMu    sync.Mutex
	patCache = map[string]patResult{}
)

type patResult struct {
	pats []*pattern.Pattern
	err  error
}

// patterns resolves the -patterns flag (once per value). Only patterns
// with exactly two threads are used: contexts come in pairs. An acting
// pattern (pattern.Pattern.Acting) is left out: whether a read is a
// check that decides a write is what the recorded trace shows, and a
// symbolic read would match every check-then-act's second caller.
func patterns(spec string) ([]*pattern.Pattern, error) {
	patMu.Lock()
	defer patMu.Unlock()
	if r, ok := patCache[spec]; ok {
		return r.pats, r.err
	}
	pats, err := pattern.Resolve(spec)
	var two []*pattern.Pattern
	for _, p := range pats {
		if p.Threads() == 2 && !p.RemoteReadsOnly() && !p.Lock && !p.Leak && !p.Cond && !p.WG && !p.Relock && !p.Order { // a lock-order inversion or a leak has no access sites
			two = append(two, p)
		}
	}
	patCache[spec] = patResult{two, err}
	return two, err
}

func run(pass *analysis.Pass) (any, error) {
	sym := pass.ResultOf[symbolic.Analyzer].(*symbolic.Result)
	res := Result{}
	if !sym.HasConcurrency {
		return &res, nil // fast path
	}
	pats, err := patterns(patternsFlag)
	if err != nil {
		return nil, err
	}
	m := &matcher{
		sym:       sym,
		pats:      pats,
		keys:      map[string]bool{},
		sites:     map[token.Pos]string{},
		bodies:    map[ssa.Instruction]*seq{},
		pairsDone: map[[2]ssa.Instruction]bool{},
		methods:   map[*ssa.Function]*seq{},
	}
	m.goContexts()
	m.methodContexts()
	res = m.out
	return &res, nil
}

// goContexts pairs every goroutine body with the code after its go
// statement, with the other goroutine bodies of the same function, with
// itself when spawned in a loop, and with the exported methods of its
// spawner's receiver type.
func (m *matcher) goContexts() {
	for _, f := range m.sym.Funcs {
		if !f.Spawns {
			continue
		}
		flat, _ := m.sym.Flat(f.Fn)
		var gos []*symbolic.Event
		for i := range flat {
			if flat[i].Op == symbolic.OpGo && m.body(&flat[i]) != nil {
				gos = append(gos, &flat[i])
			}
		}
		for gi, g := range gos {
			body := m.body(g)
			m.pair(body, m.after(f.Fn, flat, g))
			for _, h := range gos[gi+1:] {
				k := [2]ssa.Instruction{g.Instr, h.Instr}
				if m.pairsDone[k] {
					continue
				}
				m.pairsDone[k] = true
				if g.Instr == h.Instr {
					// One go statement reached twice (a helper called
					// twice): captured locals differ between the calls.
					twice := m.withoutLocals(body)
					m.pair(twice, twice)
					continue
				}
				m.pair(body, m.body(h))
			}
			if k := [2]ssa.Instruction{g.Instr, g.Instr}; !m.pairsDone[k] && m.sym.MayPrecede(g, g) {
				m.pairsDone[k] = true
				self := m.loopVariant(body, g)
				m.pair(self, self)
			}
		}
		// (c) goroutines started by a method (or its closures) vs. the
		// exported methods of the same type.
		for _, g := range gos {
			if g.Instr.Parent() != f.Fn {
				continue
			}
			if t := symbolic.Receiver(f.Fn); t != nil && m.intended(t) {
				for _, mf := range m.exportedMethods(t) {
					m.pair(m.body(g), m.method(mf))
				}
			}
		}
	}
}

// methodContexts pairs the exported pointer-receiver methods of every
// named type meant for concurrent use, each with itself and every other.
func (m *matcher) methodContexts() {
	var types_ []*types.Named
	seen := map[*types.Named]bool{}
	for _, f := range m.sym.Funcs {
		if t := symbolic.Receiver(f.Fn); t != nil && f.Fn.Parent() == nil && !seen[t] {
			seen[t] = true
			types_ = append(types_, t)
		}
	}
	for _, t := range types_ {
		if !m.intended(t) {
			continue
		}
		ms := m.exportedMethods(t)
		for i := range ms {
			for j := i; j < len(ms); j++ {
				m.pair(m.method(ms[i]), m.method(ms[j]))
			}
		}
	}
}

// exportedMethods lists t's exported methods declared with a pointer
// receiver, in source order.
func (m *matcher) exportedMethods(t *types.Named) []*ssa.Function {
	if ms, ok := m.methodsOf[t]; ok {
		return ms
	}
	var ms []*ssa.Function
	for _, f := range m.sym.Funcs {
		fn := f.Fn
		if fn.Parent() != nil || fn.Synthetic != "" || symbolic.Receiver(fn) != t {
			continue
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() {
			continue
		}
		if _, ptr := types.Unalias(fn.Signature.Recv().Type()).(*types.Pointer); !ptr {
			continue
		}
		ms = append(ms, fn)
	}
	if m.methodsOf == nil {
		m.methodsOf = map[*types.Named][]*ssa.Function{}
	}
	m.methodsOf[t] = ms
	return ms
}

// intended reports whether t looks meant for concurrent use: its struct
// has (possibly nested) a mutex, RWMutex, Once, sync.Map or sync/atomic
// field, or one of its methods locks or uses atomics. Types that merely
// start goroutines or use channels (exec.Cmd) are not: pairing all their
// methods would flood.
func (m *matcher) intended(t *types.Named) bool {
	if r, ok := m.intendedMemo[t]; ok {
		return r
	}
	r := syncFields(t.Underlying(), 0)
	if !r {
		for _, f := range m.sym.Funcs {
			if f.Fn.Parent() != nil || symbolic.Receiver(f.Fn) != t {
				continue
			}
			for i := range f.Events {
				switch op := f.Events[i].Op; {
				case op == symbolic.OpLock, op == symbolic.OpRLock, op.IsAtomic():
					r = true
				}
			}
			if r {
				break
			}
		}
	}
	if m.intendedMemo == nil {
		m.intendedMemo = map[*types.Named]bool{}
	}
	m.intendedMemo[t] = r
	return r
}

func syncFields(t types.Type, depth int) bool {
	if depth > 4 {
		return false
	}
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if obj := u.Obj(); obj.Pkg() != nil {
			switch obj.Pkg().Path() {
			case "sync/atomic":
				return true
			case "sync":
				switch obj.Name() {
				case "Mutex", "RWMutex", "Once", "Map":
					return true
				}
				return false
			}
		}
		return syncFields(u.Underlying(), depth+1)
	case *types.Pointer:
		return syncFields(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if syncFields(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// body returns the context of a goroutine body (memoized per go statement).
func (m *matcher) body(g *symbolic.Event) *seq {
	if s, ok := m.bodies[g.Instr]; ok {
		return s
	}
	var s *seq
	if evs, method, ok := m.sym.GoBody(g); ok {
		name := g.Loc
		if g.Callee != nil {
			name = g.Callee.String()
		}
		ctx := Context{Kind: GoBody, Func: g.Callee, Go: g.Pos,
			Name: fmt.Sprintf("goroutine %s (go at %s)", name, m.short(g.Pos))}
		s = newSeq(ctx, evs, method, nil)
	}
	m.bodies[g.Instr] = s
	return s
}

// after returns the context of the code of fn that may run after g and
// before g's goroutine has ended (symbolic Result.Joined).
func (m *matcher) after(fn *ssa.Function, flat []symbolic.Event, g *symbolic.Event) *seq {
	ctx := Context{Kind: AfterGo, Func: fn, Go: g.Pos,
		Name: fmt.Sprintf("%s after go at %s", fn, m.short(g.Pos))}
	return newSeq(ctx, flat, false, func(e *symbolic.Event) bool {
		return e != g && m.sym.MayPrecede(g, e) && !m.sym.Joined(g, e)
	})
}

// loopVariant returns body for pairing with itself (go in a loop):
// captured locals fresh in every iteration (declared inside the loop, or
// inside the body) are dropped.
func (m *matcher) loopVariant(body *seq, g *symbolic.Event) *seq {
	spawner := g.Instr.Parent()
	keep := func(e *symbolic.Event) bool {
		a := e.Alloc
		if a == nil {
			return true
		}
		if a.Parent() == spawner {
			return !(m.sym.Reaches(a, g.Instr) && m.sym.Reaches(g.Instr, a))
		}
		for p := spawner.Parent(); p != nil; p = p.Parent() {
			if a.Parent() == p {
				return true
			}
		}
		return false
	}
	evs := make([]symbolic.Event, 0, len(body.evs))
	for _, e := range body.evs {
		if keep(e) {
			evs = append(evs, *e)
		}
	}
	ctx := body.ctx
	ctx.Name += " (spawned in a loop)"
	return newSeq(ctx, evs, body.whole, nil)
}

// withoutLocals returns s without its accesses to captured locals.
func (m *matcher) withoutLocals(s *seq) *seq {
	evs := make([]symbolic.Event, 0, len(s.evs))
	for _, e := range s.evs {
		if e.Alloc == nil {
			evs = append(evs, *e)
		}
	}
	ctx := s.ctx
	ctx.Name += " (started twice)"
	return newSeq(ctx, evs, s.whole, nil)
}

// method returns the context of an exported method (memoized). Captured
// locals are dropped: two invocations never share them.
func (m *matcher) method(fn *ssa.Function) *seq {
	if s, ok := m.methods[fn]; ok {
		return s
	}
	evs, _ := m.sym.Flat(fn)
	s := newSeq(Context{Kind: Method, Func: fn, Name: fn.String()}, evs, true,
		func(e *symbolic.Event) bool { return e.Alloc == nil })
	m.methods[fn] = s
	return s
}

// short renders a position as base-file:line:col.
func (m *matcher) short(pos token.Pos) string {
	p := m.sym.Fset.Position(pos)
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}
