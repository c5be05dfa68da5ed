// Package driver generates test drivers: tests that call two methods of a
// type from two goroutines.
//
// A driver gives the recorded run accesses the dynamic loop can predict
// from where the package's own tests hold none. This is how PECAN closed
// the JDK collections, and the third step of pecanvet's pipeline (static
// candidates → drivers → record → predict → replay).
//
// For a package with tests, the method pairs are the static candidates
// (passes/candidates) whose two contexts are methods of one type: a driver
// per pair, run by the dynamic loop only when no recorded test held both
// sides of one of its candidates in two goroutines (Driver.Cands). For a
// package without tests, every pair of exported methods of an exported
// type whose methods use locks, atomics or channels gets one (there is no
// recorded run to spare).
//
// A driver builds the receiver as the package's tests do (a call of a
// package function returning the type, with constant arguments), else with
// a New… constructor or another function of the package returning it,
// else as the zero value (a generic type as an instance: see
// instantiate); it passes the constant arguments the tests pass to those
// methods, else small values (1, "a").
// Each case ends its receiver as the tests end one (testTeardowns), so
// that what a case took outside the receiver (a fixed port) does not
// change the machine the next case runs on. Another process can still
// hold what the calls need while they run and not while the orders do:
// check replays a driver's failing schedule once more before it credits
// the failure to the interleaving (check/control.go's driver repeats).
// It first calls the pair one after the other on fresh receivers, in both
// orders, twice each: a panic there means the driver cannot build a usable
// receiver (a nil dependency), and the test skips — that is never a
// concurrency bug. When the sequential outcomes (results and the
// receiver's state) repeat, they are the oracle: the concurrent calls must
// leave the receiver as one of the two orders does, or the test fails
// (the methods are not atomic together: a lost update, a check acted on
// after it no longer held). Only the state counts, not what the calls
// return: what concurrent calls return may differ from any sequential
// order by design (singleflight's Do tells a caller that it shared
// another's call; a TryLock fails under contention), and such a
// difference is the package's contract, not an effect of an anomaly. A
// panic in the concurrent call fails the test as any panic does.
// The calls together run after the first order and before the other
// three (issue 30): a replay's schedule ends at its anomaly, in the calls
// together, and the rest of the oracle runs free after it instead of
// step by step (gobreaker/v2: a driver replay's schedule 2,645 steps on
// average, 982 so). A panic of the calls together is judged by those
// later orders before it ends the process (outside replays: see
// pecanvetDrive), and a skip they decide is logged (LateSkipLog): check
// predicts nothing from that run, as it had nothing to predict from when
// the orders ran first.
//
// The drivers exist only in the overlay, in File: they never land in the
// user's tree. A driver that does not type-check against the package and
// its tests is dropped, with a note, so a driver never breaks the build.
package driver

import (
	"context"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/passes/candidates"
	"github.com/pecanvet/pecanvet/passes/symbolic"
	"github.com/pecanvet/pecanvet/static/load"
	"github.com/pecanvet/pecanvet/static/locker"
	"github.com/pecanvet/pecanvet/static/reach"
)

// File is the name drivers are written under, in the package's directory.
const File = "zz_pecanvet_driver_test.go"

// Prefix starts the name of every generated driver test.
const Prefix = "TestPecanvetDriver"

// Limits on what is generated per package.
const (
	maxTypes = 8  // package without tests: types driven
	maxPairs = 12 // package without tests: pairs per type
	// MaxDrivers bounds the candidate drivers of one package (in the
	// candidates' order, so races and the simplest patterns first).
	MaxDrivers = 16
)

// A Driver is one generated test.
type Driver struct {
	Test  string // the test function's name
	Type  string // the receiver's type, e.g. "Ledger"
	Calls string // what it calls concurrently, for messages: "Withdraw and Withdraw"
	// Cands are the sides of the candidates it drives: the dynamic loop
	// runs it when one of them was not held by two goroutines in the
	// recorded runs of the package's tests. Empty for a package without
	// tests: always run.
	Cands []Sides
	// Meant says why the type is meant for concurrent use ("it holds a
	// sync.Mutex"), or is "" when nothing says so: a data race the
	// driver finds is then reported as any race, else only with -v
	// (see meantForConcurrentUse).
	Meant string
	// Setup names the test whose code builds and fills the receiver
	// ("TestWithdraw (ledger_test.go:9)"), or is "" when no test calls
	// the methods on a receiver of its own (built as the tests build one,
	// else with New…, else the zero value).
	Setup string
}

// Sides are the sites of a candidate's events, per context: trace sites
// without the column ("module/relative/path.go:line").
type Sides [2][]string

// Result is what Generate made.
type Result struct {
	Files   map[string][]byte   // driver file path → source
	Drivers map[string][]Driver // import path → its drivers
	Notes   []note.Note         // drivers dropped, and why
	// Candidates are the static candidates of each package with tests
	// (import path → in the analyzer's order), each with the driver that
	// drives it, if any: what `pecanvet check -candidates` lists.
	Candidates map[string][]Candidate
	// Reach says which tests can reach which candidates (static/reach):
	// import path → test function → the indices in Candidates[path] of
	// the candidates both of whose contexts its call graph reaches. Nil
	// for a package whose call graph could not be built (see Notes).
	Reach map[string]map[string][]int
}

// Candidate is a static candidate (passes/candidates) as the dynamic loop
// sees it.
type Candidate struct {
	ID       string // pattern, "av/RWR"
	Site     string // its first event's site, "path:line"
	Contexts string // the two concurrent contexts, for people
	Sides    Sides
	Driver   string // the generated test driving it, or ""
	NoDriver string // why none does, when Driver is ""
}

// Generate returns the driver files of the loaded packages of the main
// module, which it does not change.
func Generate(ctx context.Context, loaded *load.Packages) (*Result, error) {
	// The variants of each package: itself, with its internal tests
	// (p [p.test]), and its external tests (p_test).
	type variants struct{ plain, test, xtest *packages.Package }
	byPath := map[string]*variants{}
	get := func(path string) *variants {
		v := byPath[path]
		if v == nil {
			v = &variants{}
			byPath[path] = v
		}
		return v
	}
	for _, p := range loaded.List {
		switch {
		case strings.HasSuffix(p.PkgPath, "_test"):
			get(strings.TrimSuffix(p.PkgPath, "_test")).xtest = p
		case strings.HasSuffix(p.ID, ".test"):
			// the test main
		case p.ID == p.PkgPath:
			get(p.PkgPath).plain = p
		default:
			get(p.PkgPath).test = p
		}
	}
	res := &Result{Files: map[string][]byte{}, Drivers: map[string][]Driver{}, Candidates: map[string][]Candidate{}, Reach: map[string]map[string][]int{}}
	std := &stdTypes{ctx: ctx, dir: loaded.Dir, buildFlags: loaded.BuildFlags, loadedList: loaded.List}
	paths := make([]string, 0, len(byPath))
	for path := range byPath {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		v := byPath[path]
		p := v.plain
		if p == nil || p.Module == nil || !p.Module.Main || len(p.GoFiles) == 0 || p.Types == nil || p.Name == "main" || len(p.Errors) > 0 {
			continue
		}
		var pairs []pair
		host := p // the package the driver file joins
		if v.test == nil && v.xtest == nil {
			pairs = allPairs(p)
			// Its candidates too, so that check -candidates says what
			// became of each (issue 27's account shape has no tests):
			// each pair of them that allPairs drives carries it. (None
			// for a package without pairs: the analysis costs time.)
			if len(pairs) == 0 {
				continue
			}
			if cands, err := safeCandidates(p); err == nil && len(cands) > 0 {
				res.Candidates[path] = listCandidates(p, cands)
				index := map[string]int{}
				for i, pr := range pairs {
					index[pr.typ+"."+pr.m0+"."+pr.m1] = i
				}
				for _, cp := range candidatePairs(p, cands) {
					if i, ok := index[cp.typ+"."+cp.m0+"."+cp.m1]; ok {
						pairs[i].cands = append(pairs[i].cands, cp.cands...)
					}
				}
			}
		} else {
			if v.test != nil {
				host = v.test
			}
			if host.Types == nil || host.TypesInfo == nil || len(host.Errors) > 0 {
				continue
			}
			cands, err := safeCandidates(p)
			if err != nil {
				res.Notes = append(res.Notes, note.New(note.Static, path, "", "no drivers: the static candidates failed: %v", err))
				continue
			}
			pairs = candidatePairs(p, cands)
			res.Candidates[path] = listCandidates(p, cands)
			if len(cands) > 0 {
				if r, err := reachOf(host, v.xtest, cands); err != nil {
					res.Notes = append(res.Notes, note.New(note.Static, path, "", "tests not ordered by the candidates they reach: %v", err))
				} else {
					res.Reach[path] = r
				}
			}
		}
		if len(pairs) == 0 {
			continue
		}
		typs := make([]string, len(pairs))
		for i := range pairs {
			typs[i] = pairs[i].typ
		}
		obs := observers(p, typs)
		kept := pairs[:0]
		noted := map[string]bool{}
		// skip notes, once per key, why a pair gets no driver.
		skip := func(key, format string, args ...any) {
			if !noted[key] {
				noted[key] = true
				res.Notes = append(res.Notes, note.New(note.Static, path, "", format, args...))
			}
		}
		for i := range pairs {
			pairs[i].obs = obs[pairs[i].typ]
			if tn, ok := p.Types.Scope().Lookup(pairs[i].typ).(*types.TypeName); ok {
				if named, ok := tn.Type().(*types.Named); ok {
					pairs[i].meant = meantForConcurrentUse(p, named)
					// A cursor is one goroutine's: two goroutines
					// stepping one and reading its element are the
					// driver's misuse, whatever their outcome.
					if step := cursor(named); step != "" && pairs[i].meant == "" {
						skip(pairs[i].typ, "no drivers for %s: a cursor (its %s steps it) is each goroutine's own", pairs[i].typ, step)
						continue
					}
					// A construction hook is called before the value
					// is shared: beside the other methods it is the
					// driver's guess (constructionHook).
					if m, ctor := hookOf(p, named, &pairs[i]); ctor != "" {
						skip(pairs[i].typ+"."+m, "no drivers calling %s.%s: the package calls it only from %s, before the value is shared (a construction hook)", pairs[i].typ, m, ctor)
						continue
					}
					// An initializer users run first on each new value
					// (initializerByUse): beside the other methods it
					// is a call no user makes.
					if m, why := initOf(v.test, v.xtest, pairs[i].typ, &pairs[i]); why != "" {
						skip(pairs[i].typ+"."+m, "no drivers calling %s.%s: %s", pairs[i].typ, m, why)
						continue
					}
					// A teardown step of an exported owner, or a reset
					// the package makes only before handing a value
					// out, is never called beside the type's other
					// methods by the package (ownerTeardown, reuseHook).
					if m, why := endOf(p, named, &pairs[i]); why != "" {
						skip(pairs[i].typ+"."+m, "no drivers calling %s.%s: %s", pairs[i].typ, m, why)
						continue
					}
					// Methods whose docs keep them to one goroutine
					// at a time are the package's contract: calling
					// two of them at once is the driver's misuse.
					// A method the package runs only where its docs
					// say no other call may run beside it: the
					// driver's pairing is a use the package rules out.
					if m, why := notThreadSafeOf(p, named, &pairs[i]); why != "" {
						skip(pairs[i].typ+"."+m, "no drivers calling %s.%s: %s", pairs[i].typ, m, why)
						continue
					}
					// A decoding method fills a value its decoder just
					// made (decodeMethod).
					if m := decodes(named, pairs[i]); m != "" {
						skip(pairs[i].typ+"."+m, "no drivers calling %s.%s: a decoding method fills a value no other goroutine holds yet", pairs[i].typ, m)
						continue
					}
					// A callback registration is configuration its
					// users give before sharing the value: beside the
					// other methods it is the driver's misuse
					// (callbackRegistration says why that is sound).
					if m, why := registrationOf(p, named, &pairs[i]); why != "" {
						skip(pairs[i].typ+"."+m, "no drivers calling %s.%s: %s", pairs[i].typ, m, why)
						continue
					}
					if why := serialPair(p, named, &pairs[i]); why != "" {
						skip(pairs[i].typ+"."+pairs[i].m0+"."+pairs[i].m1, "no driver calling %s.%s and %s: their docs keep them to one goroutine at a time (documented: %s)", pairs[i].typ, pairs[i].m0, pairs[i].m1, why)
						continue
					}
				}
			}
			kept = append(kept, pairs[i])
		}
		pairs = kept
		if len(pairs) == 0 {
			continue
		}
		vals := harvest(path, []*packages.Package{v.test, v.xtest})
		tfs := testFuncs(path, []*packages.Package{v.test, v.xtest})
		ends := testTeardowns(path, []*packages.Package{v.test, v.xtest})
		for i := range pairs {
			pairs[i].end = ends[pairs[i].typ]
			pairs[i].setup = findSetup(path, tfs, &pairs[i])
			if pairs[i].setup == nil {
				pairs[i].why = constructedWhere(p, []*packages.Package{v.test, v.xtest}, pairs[i].typ)
			}
		}
		pairs = instantiate(host, pairs, []*packages.Package{v.test, v.xtest}, res.Candidates[path])
		src, drivers, notes := emitChecked(host, []*packages.Package{v.test, v.xtest}, pairs, vals, std)
		res.Notes = append(res.Notes, notes...)
		if src != "" {
			res.Files[filepath.Join(filepath.Dir(p.GoFiles[0]), File)] = []byte(src)
			res.Drivers[path] = drivers
		}
		markDriven(res.Candidates[path], drivers)
	}
	return res, nil
}

// reachOf gives each test of the package (host: with its internal tests)
// and of its external tests the indices of the candidates whose two
// contexts its call graph reaches. A context without a function of the
// package (a goroutine body of another package) counts as reached.
func reachOf(host, xtest *packages.Package, cands candidates.Result) (map[string][]int, error) {
	g, err := reach.Build([]*packages.Package{host, xtest})
	if err != nil {
		return nil, err
	}
	out := map[string][]int{}
	for _, test := range g.Tests() {
		r := g.Reached(test)
		idx := []int{}
		for i, c := range cands {
			ok := true
			for _, f := range c.Funcs {
				if f.Func != nil && f.Func.Pos().IsValid() && !r[reach.Key(host.Fset, f.Func.Pos())] {
					ok = false
				}
			}
			if ok {
				idx = append(idx, i)
			}
		}
		out[test] = idx
	}
	return out, nil
}

// safeCandidates is candidatesOf, a panic of the analysis turned into an
// error: drivers are an extra, never a reason for the check to fail.
func safeCandidates(p *packages.Package) (c candidates.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return candidatesOf(p)
}

// A pair is two methods of one type to call from two goroutines.
type pair struct {
	typ    string // the type's name in its package
	m0, m1 string // method names, m0 <= m1
	cands  []Sides
	meant  string     // see Driver.Meant
	obs    []observer // how the driver sees the receiver's state
	setup  *setup     // the test code that sets the receiver up, or nil
	// targs are the type arguments a generic type is driven with (see
	// instantiate), in the driver's package; nil for a type without
	// type parameters.
	targs []types.Type
	// noSetup says why a test's setup was not used although a test
	// calls the methods (it does not compile in the driver).
	noSetup string
	// why says, for a pair without a setup, why no test's is copied
	// (see constructedWhere).
	why string
	// end is the method the tests end a receiver of the type with
	// (testTeardowns), which the driver calls at the end of each case;
	// "" if none.
	end string
}

func (pr *pair) test() string  { return Prefix + "_" + pr.typ + "_" + pr.m0 + "_" + pr.m1 }
func (pr *pair) calls() string { return pr.m0 + " and " + pr.m1 }

// listCandidates describes cands for Result.Candidates, none driven yet.
func listCandidates(p *packages.Package, cands candidates.Result) []Candidate {
	out := make([]Candidate, 0, len(cands))
	for _, c := range cands {
		cd := Candidate{ID: c.Kind + "/" + c.Pattern, Sides: sidesOf(p, c),
			Contexts: contextName(c.Funcs[0]) + " and " + contextName(c.Funcs[1]),
			NoDriver: "its two contexts are not two methods of one type of the package"}
		if len(c.Sites) > 0 {
			cd.Site = site(p, c.Sites[0])
		}
		f0, f1 := c.Funcs[0], c.Funcs[1]
		if f0.Kind == candidates.Method && f1.Kind == candidates.Method && f0.Func != nil && f1.Func != nil {
			if t0, t1 := symbolic.Receiver(f0.Func), symbolic.Receiver(f1.Func); t0 != nil && t0 == t1 {
				cd.NoDriver = "its driver was dropped (see the notes) or is past the limit of " + strconv.Itoa(MaxDrivers) + " drivers per package"
			}
		}
		out = append(out, cd)
	}
	return out
}

// contextName is a method context as "T.M", others as the analyzer
// names them.
func contextName(c candidates.Context) string {
	if c.Kind == candidates.Method && c.Func != nil {
		if t := symbolic.Receiver(c.Func); t != nil {
			return t.Obj().Name() + "." + c.Func.Name()
		}
	}
	return c.Name
}

// markDriven names, in cands, the driver of each candidate a driver drives.
func markDriven(cands []Candidate, drivers []Driver) {
	for i := range cands {
		for _, d := range drivers {
			for _, s := range d.Cands {
				if sameSides(s, cands[i].Sides) || sameSides(Sides{s[1], s[0]}, cands[i].Sides) {
					cands[i].Driver, cands[i].NoDriver = d.Test, ""
				}
			}
		}
	}
}

func sameSides(a, b Sides) bool {
	for k := 0; k < 2; k++ {
		x, y := a[k], b[k]
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
	}
	return true
}

// sidesOf is the sites of c's events by context.
func sidesOf(p *packages.Package, c candidates.Candidate) Sides {
	var sides Sides
	for i, pos := range c.Sites {
		side := 0
		if i < len(c.P.T) && c.P.T[i] != 0 {
			side = 1
		}
		sides[side] = append(sides[side], site(p, pos))
	}
	return sides
}

// candidatePairs groups the candidates whose two contexts are methods of
// one type of p by method pair, in the candidates' order, at most
// MaxDrivers.
func candidatePairs(p *packages.Package, cands candidates.Result) []pair {
	var out []pair
	index := map[string]int{}
	for _, c := range cands {
		f0, f1 := c.Funcs[0], c.Funcs[1]
		if f0.Kind != candidates.Method || f1.Kind != candidates.Method || f0.Func == nil || f1.Func == nil {
			continue
		}
		if fn0, _ := f0.Func.Object().(*types.Func); lockOp(fn0) {
			continue
		}
		if fn1, _ := f1.Func.Object().(*types.Func); lockOp(fn1) {
			continue // a lock of the user's own: its methods are the lock's operations
		}
		t0, t1 := symbolic.Receiver(f0.Func), symbolic.Receiver(f1.Func)
		if t0 == nil || t0 != t1 || t0.Obj().Pkg() == nil || t0.Obj().Pkg().Path() != p.PkgPath {
			continue
		}
		sides := sidesOf(p, c)
		m0, m1 := f0.Func.Name(), f1.Func.Name()
		if m1 < m0 {
			m0, m1 = m1, m0
			sides[0], sides[1] = sides[1], sides[0]
		}
		key := t0.Obj().Name() + "." + m0 + "." + m1
		if i, ok := index[key]; ok {
			out[i].cands = append(out[i].cands, sides)
			continue
		}
		if len(out) == MaxDrivers {
			continue
		}
		index[key] = len(out)
		out = append(out, pair{typ: t0.Obj().Name(), m0: m0, m1: m1, cands: []Sides{sides}})
	}
	return out
}

// site renders pos as a trace site without its column: the module-relative
// slash path and the line.
func site(p *packages.Package, pos token.Pos) string {
	position := p.Fset.Position(pos)
	name := position.Filename
	if p.Module != nil && p.Module.Dir != "" {
		if rel, err := filepath.Rel(p.Module.Dir, name); err == nil {
			name = rel
		}
	}
	return fmt.Sprintf("%s:%d", filepath.ToSlash(name), position.Line)
}

// Drivable reports whether Generate drives a package of the main module
// that has no tests: whether it has an exported type meant for
// goroutines with exported methods to pair (allPairs). It reads p's
// Types, Syntax and TypesInfo only, so a vet unit's can be passed: a
// package with neither tests nor drivers needs no test binary.
func Drivable(p *packages.Package) bool { return len(allPairs(p)) > 0 }

// allPairs lists, for a package without tests, every pair of exported
// pointer-receiver methods of its exported types meant for concurrent use.
func allPairs(p *packages.Package) []pair {
	var out []pair
	scope := p.Types.Scope()
	ntypes := 0
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if _, isIface := named.Underlying().(*types.Interface); isIface || !concurrent(p, named) {
			continue
		}
		ms := types.NewMethodSet(types.NewPointer(named))
		var names []string
		for i := 0; i < ms.Len(); i++ {
			if fn, ok := ms.At(i).Obj().(*types.Func); ok && fn.Exported() && !syncMethod(fn) && !lockOp(fn) {
				names = append(names, fn.Name())
			}
		}
		sort.Strings(names)
		n := 0
		for i := 0; i < len(names) && n < maxPairs; i++ {
			for j := i; j < len(names) && n < maxPairs; j++ {
				out = append(out, pair{typ: name, m0: names[i], m1: names[j]})
				n++
			}
		}
		if len(names) > 0 {
			if ntypes++; ntypes >= maxTypes {
				break
			}
		}
	}
	return out
}

// syncMethod reports whether fn is a method of package sync or
// sync/atomic, promoted from an embedded field (paho's TestLog and MIDs
// embed a sync.Mutex: Lock, Unlock and TryLock are in their method sets).
// Called against each other they drive the standard library's lock, not
// the package's code, and a Lock beside a Lock never returns: each such
// driver ended in a skip after its whole wait.
// lockOp reports whether fn is a lock operation (Lock, Unlock, RLock,
// RUnlock, TryLock, TryRLock, RLocker) of a type whose pointer has Lock()
// and Unlock(), also where one of them is an embedded sync.Mutex's and the
// other the type's own (a superset of locker.Method's, which takes only
// types whose both are their own). No generated driver calls one: from one goroutine of a
// driver it leaves the lock held, which no user does; against a method
// that locks, the calls never return; against one that does not, that
// method is the lock's own accessor, read by the holder (cilium/statedb's
// SortableMutex: Lock wraps the embedded mutex's and records
// acquireDuration, which AcquireDuration returns to the caller holding
// it; trial 15's false race).
func lockOp(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	switch fn.Name() {
	case "Lock", "Unlock", "RLock", "RUnlock", "TryLock", "TryRLock", "RLocker":
		return locker.Has(sig.Recv().Type())
	}
	return false
}

// decodes returns the method of pr that is a decoding method
// (decodeMethod) of named, or "".
func decodes(named *types.Named, pr pair) string {
	ms := types.NewMethodSet(types.NewPointer(named))
	for _, m := range []string{pr.m0, pr.m1} {
		if sel := ms.Lookup(nil, m); sel != nil {
			if fn, ok := sel.Obj().(*types.Func); ok && decodeMethod(fn) {
				return m
			}
		}
	}
	return ""
}

// decodeMethod reports whether fn fills its receiver from a serialized
// form: UnmarshalJSON, UnmarshalText, UnmarshalBinary, UnmarshalYAML,
// UnmarshalTOML, GobDecode, or database/sql's Scanner's Scan. A decoder
// calls it on a value it just made and no one else holds yet; two
// goroutines decoding into one value, or one decoding while another uses
// it, is the caller's misuse (statedb's part.Map.UnmarshalJSON against
// itself: trial 15's false av and race).
func decodeMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) {
		return false
	}
	switch fn.Name() {
	case "UnmarshalJSON", "UnmarshalText", "UnmarshalBinary", "GobDecode", "UnmarshalTOML", "UnmarshalYAML":
		// func([]byte) error; UnmarshalTOML takes any; yaml.v2's
		// func(func(any) error) error, yaml.v3's func(*yaml.Node) error.
		return true
	case "Scan":
		_, isIface := sig.Params().At(0).Type().Underlying().(*types.Interface)
		return isIface
	}
	return false
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func syncMethod(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sync", "sync/atomic":
		return true
	}
	return false
}

// concurrent reports whether t's methods (or fields) use sync, atomics or
// channels: the types worth driving from two goroutines.
func concurrent(p *packages.Package, named *types.Named) bool {
	if st, ok := named.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if usesSync(st.Field(i).Type()) {
				return true
			}
		}
	}
	// A method body that uses channels or go statements.
	found := false
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			fd, ok := n.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil {
				return !found
			}
			obj, _ := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				return false
			}
			recv := obj.Type().(*types.Signature).Recv()
			if recv == nil || !sameNamed(recv.Type(), named) {
				return false
			}
			ast.Inspect(fd.Body, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.GoStmt, *ast.SendStmt:
					found = true
				case *ast.UnaryExpr:
					if m.Op == token.ARROW {
						found = true
					}
				}
				return !found
			})
			return false
		})
	}
	return found
}

func sameNamed(t types.Type, named *types.Named) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj() == named.Obj()
}

func usesSync(t types.Type) bool {
	switch t := t.(type) {
	case *types.Named:
		if pkg := t.Obj().Pkg(); pkg != nil && (pkg.Path() == "sync" || pkg.Path() == "sync/atomic") {
			return true
		}
	case *types.Chan:
		return true
	case *types.Pointer:
		return usesSync(t.Elem())
	}
	return false
}

// emitChecked writes the drivers of pairs into host's package and
// type-checks them against it (and the imports of its tests, from which
// setups are copied); drivers that do not type-check are dropped (with a
// note) and the rest written again, a few rounds at most.
func emitChecked(host *packages.Package, tests []*packages.Package, pairs []pair, vals *values, std *stdTypes) (string, []Driver, []note.Note) {
	var notes []note.Note
	for round := 0; round < 6 && len(pairs) > 0; round++ {
		src, drivers := emit(host.Types, pairs, vals)
		bad, errs := typeCheck(host, tests, src, std)
		if len(errs) == 0 {
			return src, drivers, notes
		}
		if len(bad) == 0 {
			// An error outside any one driver: the imports, which the
			// setups bring (a package the driver's importer cannot
			// load). Without the setups, once; then drop them all
			// rather than break the build.
			withSetup := false
			first := strings.SplitN(errs[0], "\n", 2)[0] // it goes into a comment
			for i := range pairs {
				if pairs[i].setup != nil {
					withSetup = true
					pairs[i].noSetup = fmt.Sprintf("The setups of this file do not compile here (%s): the receiver is built as the tests build one.", first)
					pairs[i].setup = nil
				}
			}
			if withSetup {
				notes = append(notes, note.New(note.Driver, host.PkgPath, "", "generated drivers: the setups copied from the tests do not compile (%s); built without them", first))
				continue
			}
			notes = append(notes, note.New(note.Driver, host.PkgPath, "", "generated drivers dropped: they do not compile (%s)", errs[0]))
			return "", nil, notes
		}
		var keep []pair
		for _, pr := range pairs {
			if msg, ok := bad[pr.test()]; ok {
				if pr.setup != nil {
					// The test's code does not compile here (it uses
					// what only the test has): build the receiver as
					// without it.
					pr.noSetup = fmt.Sprintf("The setup of %s (%s) does not compile here (%s): the receiver is built as the tests build one.", pr.setup.test, pr.setup.at, msg)
					notes = append(notes, note.New(note.Driver, host.PkgPath, pr.test(), "generated driver calling %s of %s: the setup copied from %s does not compile (%s); built as without it", pr.calls(), pr.typ, pr.setup.test, msg))
					pr.setup = nil
					keep = append(keep, pr)
					continue
				}
				notes = append(notes, note.New(note.Driver, host.PkgPath, "", "generated driver calling %s of %s dropped: it does not compile (%s)", pr.calls(), pr.typ, msg))
				continue
			}
			keep = append(keep, pr)
		}
		pairs = keep
	}
	return "", nil, notes
}

// typeCheck type-checks the driver source as one more file of host's
// package. It returns the first error of each driver function, by test
// name, and all errors. The driver file may import what host or its tests
// (the test variants of the package) import; not what imports the package
// itself (see testFunc.cyclic).
func typeCheck(host *packages.Package, tests []*packages.Package, src string, std *stdTypes) (map[string]string, []string) {
	fset := host.Fset
	f, err := parser.ParseFile(fset, File, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, []string{err.Error()}
	}
	direct := map[string]*types.Package{}
	for _, imp := range host.Types.Imports() {
		direct[imp.Path()] = imp
	}
	for _, tp := range tests {
		if tp == nil {
			continue
		}
		cyclic := importsOf(tp, host.PkgPath)
		for path, ip := range tp.Imports {
			if ip.Types != nil && direct[path] == nil && !cyclic[path] && path != host.PkgPath {
				direct[path] = ip.Types
			}
		}
	}
	var errs []types.Error
	conf := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if p := direct[path]; p != nil {
				return p, nil
			}
			return std.Import(path)
		}),
		Error:     func(err error) { errs = append(errs, err.(types.Error)) },
		GoVersion: host.TypesInfo.FileVersions[host.Syntax[0]],
	}
	// The driver joins the already checked package (a copy of it: the
	// loaded one is not changed): its declarations and those of the tests
	// are in scope.
	pkg := types.NewPackage(host.Types.Path(), host.Types.Name())
	for _, name := range host.Types.Scope().Names() {
		pkg.Scope().Insert(host.Types.Scope().Lookup(name))
	}
	info := &types.Info{}
	_ = types.NewChecker(conf, fset, pkg, info).Files([]*ast.File{f})
	if len(errs) == 0 {
		return nil, nil
	}
	bad := map[string]string{}
	var all []string
	for _, e := range errs {
		// A type checker's message can span lines ("not enough return
		// values\n\thave ()\n\twant (pecanvetCase)"); it goes into a
		// driver's // comment, where a second line is code: logrus's
		// drivers failed to parse ("expected declaration, found have")
		// and were all dropped.
		e.Msg = oneLine(e.Msg)
		all = append(all, e.Msg)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Pos() <= e.Pos && e.Pos < fd.End() && strings.HasPrefix(fd.Name.Name, Prefix) {
				if _, seen := bad[fd.Name.Name]; !seen {
					bad[fd.Name.Name] = e.Msg
				}
				break
			}
		}
	}
	if len(bad) < len(errs) {
		// Some error is outside the drivers: unless it is caused by
		// one of them, the whole file goes.
		for _, e := range errs {
			inDriver := false
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= e.Pos && e.Pos < fd.End() && strings.HasPrefix(fd.Name.Name, Prefix) {
					inDriver = true
				}
			}
			if !inDriver && !strings.Contains(e.Msg, "imported and not used") {
				return nil, all
			}
		}
	}
	return bad, all
}

// oneLine joins the lines of msg with single spaces.
func oneLine(msg string) string {
	return strings.Join(strings.Fields(msg), " ")
}

// stdTypes has the standard packages a driver file imports besides the
// package's own imports, loaded once per Generate (from export data, in one
// go list run: an importer per package cost seconds each under load).
// Those the loaded packages import already (fmt, reflect and testing
// from the test main, most often time too) are taken from that load,
// which read their export data: a go list and go/packages' two queries
// less per check (0.3 s of CPU, 1.6-1.8 s of wall at load 30 on conc's
// pool and stream), and the same types.Package for a path as the
// package's own, not a second copy.
type stdTypes struct {
	ctx        context.Context
	dir        string
	buildFlags []string
	loadedList []*packages.Package // the packages loaded, whose imports are searched first
	loaded     bool
	pkgs       map[string]*types.Package
	fallback   types.Importer
}

func (s *stdTypes) Import(path string) (*types.Package, error) {
	if !s.loaded {
		s.loaded = true
		s.pkgs = fromImports(s.loadedList, stdImports)
		var missing []string
		for _, path := range stdImports {
			if s.pkgs[path] == nil {
				missing = append(missing, path)
			}
		}
		if len(missing) > 0 {
			cfg := &packages.Config{Context: s.ctx, Mode: packages.NeedName | packages.NeedTypes, Dir: s.dir, BuildFlags: s.buildFlags}
			if ps, err := packages.Load(cfg, missing...); err == nil {
				for _, p := range ps {
					if p.Types != nil && len(p.Errors) == 0 {
						s.pkgs[p.PkgPath] = p.Types
					}
				}
			}
		}
	}
	if p := s.pkgs[path]; p != nil {
		return p, nil
	}
	if s.fallback == nil {
		s.fallback = importer.Default()
	}
	return s.fallback.Import(path)
}

// fromImports returns the types of the paths among the direct imports of
// pkgs that were loaded whole: complete, without errors, and not a test
// variant ("q [p.test]").
func fromImports(pkgs []*packages.Package, paths []string) map[string]*types.Package {
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	found := map[string]*types.Package{}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if want[imp.PkgPath] && imp.ID == imp.PkgPath && imp.Types != nil && imp.Types.Complete() && len(imp.Errors) == 0 {
				found[imp.PkgPath] = imp.Types
			}
		}
	}
	return found
}

// driverImports are the packages every driver file imports under their
// own names.
var driverImports = []string{"fmt", "reflect", "testing", "time"}

// stdImports are all the packages every driver file imports: also os, as
// pecanvetos. Without it among those stdTypes takes from the load, the
// type-check of a package's drivers whose code does not import os fell
// back to importer.Default, a go list -export of os per check (pond:
// 0.3 s of wall on the check's path before the instrumented build), when
// the test main's os was loaded already.
var stdImports = []string{"fmt", "os", "reflect", "testing", "time"}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
