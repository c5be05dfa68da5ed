package driver

import (
	"context"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/static/load"
)

func generateIn(t *testing.T, pkg string) *Result {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata/subjects", pkg))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Load(context.Background(), dir, []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(context.Background(), pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestCandidateDriver: a package with tests gets a driver for its
// candidate pair, built as its tests build the receiver and with the
// amount they pass.
func TestCandidateDriver(t *testing.T) {
	res := generateIn(t, "ledger")
	ds := res.Drivers["subjects/ledger"]
	if len(ds) == 0 {
		t.Fatalf("no drivers (notes %q)", res.Notes)
	}
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	t.Logf("%s", src)
	var found *Driver
	for i := range ds {
		if ds[i].Calls == "Withdraw and Withdraw" {
			found = &ds[i]
		}
	}
	if found == nil {
		t.Fatalf("no driver calling Withdraw and Withdraw: %+v", ds)
	}
	if len(found.Cands) == 0 || len(found.Cands[0][0]) == 0 || !strings.HasPrefix(found.Cands[0][0][0], "ledger/ledger.go:") {
		t.Errorf("candidate sides %q, want sites in ledger/ledger.go", found.Cands)
	}
	for _, want := range []string{"NewLedger(100)", "Withdraw(30)", "func " + found.Test + "("} {
		if !strings.Contains(src, want) {
			t.Errorf("driver source lacks %q", want)
		}
	}
}

// TestNoCursorDrivers: a cursor that locks while it steps (bigcache's
// EntryInfoIterator) gets no driver, with a note; the store it walks,
// meant for concurrent use, does.
func TestNoCursorDrivers(t *testing.T) {
	res := generateIn(t, "drvcursor")
	ds := res.Drivers["subjects/drvcursor"]
	store := false
	for _, d := range ds {
		if d.Type == "Cursor" {
			t.Errorf("a driver for the cursor: %+v", d)
		}
		store = store || d.Type == "Store"
	}
	if !store {
		t.Errorf("no driver for Store: %+v (notes %q)", ds, res.Notes)
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n.Text, "no drivers for Cursor: a cursor (its SetNext steps it)")
	}
	if !found {
		t.Errorf("no note on the cursor: %q", res.Notes)
	}
}

// TestDropsWhatDoesNotCompile: a driver that does not type-check against
// the package is dropped with a note; the others stay.
func TestDropsWhatDoesNotCompile(t *testing.T) {
	dir, err := filepath.Abs("testdata/subjects/ledger")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir, Tests: true}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var host *packages.Package
	for _, p := range pkgs {
		if p.PkgPath == "subjects/ledger" && strings.Contains(p.ID, "[") {
			host = p
		}
	}
	if host == nil {
		t.Fatal("no test variant of subjects/ledger")
	}
	pairs := []pair{{typ: "Ledger", m0: "Withdraw", m1: "Withdraw"}, {typ: "Ledger", m0: "Balance", m1: "Balance"}}
	// A name the package lacks where Withdraw takes an int: what a
	// wrong guess of an argument would give. (A constant of the wrong
	// type is not passed at all: see TestFits.)
	vals := &values{ctors: map[string]ctorCall{}, args: map[string][]string{"Ledger.Withdraw": {`undefinedAmount`}}}
	src, drivers, notes := emitChecked(host, nil, pairs, vals, &stdTypes{ctx: context.Background(), dir: dir})
	if len(drivers) != 1 || drivers[0].Calls != "Balance and Balance" {
		t.Fatalf("drivers %+v, want only Balance and Balance", drivers)
	}
	if strings.Contains(src, "Withdraw") {
		t.Errorf("the dropped driver is still in the source:\n%s", src)
	}
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "calling Withdraw and Withdraw of Ledger dropped: it does not compile") {
		t.Errorf("notes %q, want one saying the Withdraw driver was dropped", notes)
	}
	if bad, errs := typeCheck(host, nil, src, &stdTypes{ctx: context.Background(), dir: dir}); len(bad) > 0 || len(errs) > 0 {
		t.Errorf("the kept drivers do not type-check: %q", errs)
	}
}

// TestCallbackArgument: a method taking a function (atomiclimit's
// Work(f), which its tests call only inside goroutines, so no setup is
// copied) is called with a no-op function, not nil, which it would call
// and panic on (the driver would then skip as without a usable receiver).
func TestCallbackArgument(t *testing.T) {
	res := generateIn(t, "atomiclimit")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	if !strings.Contains(src, ".Work(func() { return })") {
		t.Fatalf("Work not called with a no-op function:\n%s", src)
	}
	for _, n := range res.Notes {
		if strings.Contains(n.Text, "do not compile") || strings.Contains(n.Text, "does not compile") {
			t.Errorf("note %q", n)
		}
	}
}

// TestHarvestVariables: a driver takes the values the tests pass, as
// literals or through local variables set only from literals; a variable
// set otherwise, or to two values, is not taken.
func TestHarvestVariables(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module h\n\ngo 1.22\n",
		"h.go": `package h

type Acct struct{ n int }

func New(n int) *Acct                { return &Acct{n: n} }
func (a *Acct) Take(n int, why string) { a.n -= n }
func (a *Acct) Put(n int)             { a.n += n }
func (a *Acct) Move(n int)            { a.n += n }
`,
		"h_test.go": `package h

import "testing"

func TestH(t *testing.T) {
	start := 100
	a := New(start)
	amount, why := 30, "rent"
	a.Take(amount, why)
	twice := 1
	twice = 2
	a.Put(twice)
	bumped := 5
	bumped++
	a.Move(bumped)
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir, Tests: true}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var tests []*packages.Package
	for _, p := range pkgs {
		if p.PkgPath == "h" && strings.Contains(p.ID, "[") {
			tests = append(tests, p)
		}
	}
	if len(tests) == 0 {
		t.Fatal("no test variant")
	}
	vals := harvest("h", tests)
	if c, ok := vals.ctors["Acct"]; !ok || strings.Join(c.args, ",") != "100" {
		t.Errorf("constructor args %+v, want New(100)", vals.ctors)
	}
	if got := strings.Join(vals.args["Acct.Take"], ","); got != `30,"rent"` {
		t.Errorf("Take args %q, want 30,\"rent\"", got)
	}
	for _, m := range []string{"Acct.Put", "Acct.Move"} {
		if got, ok := vals.args[m]; ok {
			t.Errorf("%s args %q, want none (the variable is set to more than one value)", m, got)
		}
	}
}

// TestReach: a test that calls the candidate's methods reaches it in the
// call graph; Reach names the candidates by their index.
func TestReach(t *testing.T) {
	res := generateIn(t, "ledger")
	cands := res.Candidates["subjects/ledger"]
	reach := res.Reach["subjects/ledger"]
	if len(cands) == 0 || reach == nil {
		t.Fatalf("candidates %v, reach %v (notes %q)", cands, reach, res.Notes)
	}
	t.Logf("reach %v", reach)
	withdraw := -1
	for i, c := range cands {
		if c.Contexts == "Ledger.Withdraw and Ledger.Withdraw" {
			withdraw = i
		}
	}
	if withdraw < 0 {
		t.Fatalf("no Withdraw/Withdraw candidate in %v", cands)
	}
	found := false
	for test, idx := range reach {
		for _, i := range idx {
			if i < 0 || i >= len(cands) {
				t.Errorf("%s: index %d out of range", test, i)
			}
			if i == withdraw {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no test reaches Withdraw/Withdraw: %v", reach)
	}
}

// TestSafeDoc: a doc comment saying its type is safe for concurrent use
// counts; one saying it is not does not.
func TestSafeDoc(t *testing.T) {
	for doc, want := range map[string]bool{
		"A Pool is safe for concurrent use by multiple goroutines.":                      true,
		"Cache is goroutine-safe.":                                                       true,
		"It is safe to use concurrently.":                                                true,
		"A Buffer is not safe for concurrent use.":                                       false,
		"A Builder isn't\nsafe for\nconcurrent use.":                                     false,
		"Never thread-safe.":                                                             false,
		"Unlike Map, it is not safe for concurrent use; Map is safe for concurrent use.": true,
		"Counter counts.":                                                                false,
	} {
		if got := safeDoc(doc); got != want {
			t.Errorf("safeDoc(%q) = %v, want %v", doc, got, want)
		}
	}
}

// TestUnsafeDoc: a doc comment saying its type is not safe for concurrent
// use is heard, whatever else it says; one that says nothing is not.
func TestUnsafeDoc(t *testing.T) {
	for doc, want := range map[string]bool{
		"A Buffer is not safe for concurrent use.":                                       true,
		"A Builder isn't\nsafe for\nconcurrent use.":                                     true,
		"Unlike Map, it is not safe for concurrent use; Map is safe for concurrent use.": true,
		"A Pool is safe for concurrent use by multiple goroutines.":                      false,
		"Counter counts.": false,
		"":                false,
	} {
		if got := unsafeDoc(doc); got != want {
			t.Errorf("unsafeDoc(%q) = %v, want %v", doc, got, want)
		}
	}
}

// TestMeantForConcurrentUse: a type holding a sync value, an atomic or a
// channel (directly, in a struct it embeds, or in a struct it holds and
// whose sync values its methods use), or documented as safe for
// concurrent use, is meant for concurrent use; a plain one is not, nor a
// cursor (a Next() bool) that its doc does not call safe.
func TestMeantForConcurrentUse(t *testing.T) {
	dir := t.TempDir()
	src := `package m

import (
	"sync"
	"sync/atomic"
)

type Locked struct {
	mu sync.Mutex
	n  int
}

type Counter struct{ n atomic.Int64 }

type Queue struct{ c chan int }

type inner struct{ mu *sync.RWMutex }

type Outer struct {
	in inner
	n  int
}

func (o *Outer) Get() int { o.in.mu.RLock(); defer o.in.mu.RUnlock(); return o.n }

type Embeds struct {
	inner
	n int
}

// node's atomics guard the nodes other goroutines read; Ring's methods
// link its sentinel and read the other nodes' weights, never the
// sentinel's: Ring is not made concurrent by the atomics it holds.
type node struct {
	weight atomic.Int64
	next   *node
}

func (n *node) setNext(m *node) { n.next = m }

type Ring struct {
	root node
	len  int
}

func (r *Ring) Reset()            { r.root.setNext(&r.root); r.len = 0 }
func (r *Ring) Push(n *node)      { link(n, &r.root); r.len++ }
func (r *Ring) Weigh(n *node) int { return int(n.weight.Load()) }

func link(n, at *node) { n.next = at.next; at.setNext(n) }

type stats struct{ hits atomic.Int64 }

func (s *stats) hit() { s.hits.Add(1) }

func bump(s *stats) { s.hit() }

// Counted counts through its held stats' method; Bumped hands its
// stats' address to a function that counts: both use the atomic.
type Counted struct {
	st stats
	m  map[int]int
}

func (c *Counted) Put(k int) { c.st.hit(); c.m[k] = 1 }

type Bumped struct {
	st stats
	m  map[int]int
}

func (b *Bumped) Put(k int) { bump(&b.st); b.m[k] = 1 }

// Doc is safe for concurrent use.
type Doc struct{ n int }

// NotDoc is not safe for concurrent use.
type NotDoc struct{ n int }

type Plain struct{ n int }

// Cursor locks while it loads the next page.
type Cursor struct {
	mu sync.Mutex
	i  int
}

func (c *Cursor) SetNext() bool { c.mu.Lock(); defer c.mu.Unlock(); c.i++; return c.i < 9 }
func (c *Cursor) Value() int    { return c.i }

// SafeCursor is safe for concurrent use.
type SafeCursor struct {
	mu sync.Mutex
	i  int
}

func (c *SafeCursor) Next() bool { return false }

// Stepper's Next takes a count: no cursor's step.
type Stepper struct{ mu sync.Mutex }

func (s *Stepper) Next(n int) bool { return n > 0 }
`
	for name, s := range map[string]string{"go.mod": "module m\n\ngo 1.22\n", "m.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir}, ".")
	if err != nil || len(pkgs) != 1 {
		t.Fatal(err, len(pkgs))
	}
	p := pkgs[0]
	for name, want := range map[string]string{
		"Locked":     "it holds a sync.Mutex",
		"Counter":    "it holds an atomic.Int64",
		"Queue":      "it holds a channel",
		"Outer":      "it holds a sync.RWMutex",
		"Embeds":     "it holds a sync.RWMutex",
		"Ring":       "",
		"Counted":    "it holds an atomic.Int64",
		"Bumped":     "it holds an atomic.Int64",
		"Doc":        "its doc says it is safe for concurrent use",
		"NotDoc":     "",
		"Plain":      "",
		"Cursor":     "",
		"SafeCursor": "it holds a sync.Mutex",
		"Stepper":    "it holds a sync.Mutex",
	} {
		named := p.Types.Scope().Lookup(name).Type().(*types.Named)
		if got := meantForConcurrentUse(p, named); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestObservers: the getters a driver reads a receiver's state through
// are the exported methods without parameters, with results, that write
// nothing (locking, reading and unlocking, or filling a slice of their
// own, writes nothing); without any, the exported fields.
func TestObservers(t *testing.T) {
	dir := t.TempDir()
	src := `package m

import (
	"sync"
	"sync/atomic"
)

type Src interface{ Get() int }

type C struct {
	mu    sync.Mutex
	n     int
	items []int
	seq   atomic.Int64
	src   Src
	m     map[int]int
}

func (c *C) Total() int          { c.mu.Lock(); defer c.mu.Unlock(); return c.n }
func (c *C) Items() []int        { c.mu.Lock(); defer c.mu.Unlock(); out := make([]int, len(c.items)); copy(out, c.items); return out }
func (c *C) Appended() []int     { var out []int; for _, x := range c.items { out = append(out, x) }; return out }
func (c *C) Seq() int64          { return c.seq.Load() }
func (c *C) Helper() int         { return c.total() }
func (c *C) total() int          { return c.n }
func (c *C) Bump() int           { c.n++; return c.n }
func (c *C) Next() int64         { return c.seq.Add(1) }
func (c *C) Peek() int           { return c.src.Get() }
func (c *C) Fill() int           { c.m[1] = 2; return 1 }
func (c *C) Reset()              { c.n = 0 }
func (c *C) Of(k int) int        { return c.m[k] }
func (c *C) Indirect() int       { return c.bump() }
func (c *C) bump() int           { c.items[0] = 1; return 0 }

type F struct {
	Count int
	Name  string
	Mu    sync.Mutex
	hidden int
}

func (f *F) Inc() { f.Count++ }
`
	for name, s := range map[string]string{"go.mod": "module m\n\ngo 1.22\n", "m.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatal(err, pkgs)
	}
	obs := observers(pkgs[0], []string{"C", "F"})
	names := func(os []observer) string {
		var s []string
		for _, o := range os {
			s = append(s, o.name)
		}
		return strings.Join(s, " ")
	}
	if got, want := names(obs["C"]), "Appended Helper Items Seq Total"; got != want {
		t.Errorf("getters of C: %q, want %q", got, want)
	}
	if got, want := names(obs["F"]), "Count Name"; got != want {
		t.Errorf("fields of F: %q, want %q", got, want)
	}
}

// TestSetupFromTests: the driver of Withdraw and Withdraw copies its
// test's code up to the first Withdraw (the receiver's construction and
// the Deposit that puts money in it) and passes the test's amount.
func TestSetupFromTests(t *testing.T) {
	res := generateIn(t, "drvledger")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	t.Logf("%s", src)
	var found *Driver
	for _, d := range res.Drivers["subjects/drvledger"] {
		if d.Calls == "Withdraw and Withdraw" {
			found = &d
		}
	}
	if found == nil {
		t.Fatalf("no driver calling Withdraw and Withdraw (notes %q)", res.Notes)
	}
	if found.Setup != "TestWithdraw (ledger_test.go:11)" {
		t.Errorf("setup %q, want TestWithdraw (ledger_test.go:11)", found.Setup)
	}
	i := strings.Index(src, "func "+found.Test+"(")
	if i < 0 {
		t.Fatalf("no function %s", found.Test)
	}
	body := src[i:]
	for _, want := range []string{"// From TestWithdraw (ledger_test.go:11), up to its first call of Withdraw.", "l := NewLedger()\n\t\tl.Deposit(10)\n", "l.Withdraw(7)"} {
		if !strings.Contains(body, want) {
			t.Errorf("driver lacks %q", want)
		}
	}
	if strings.Contains(body, "errors.Is") || strings.Contains(body, "Fatalf") {
		t.Errorf("driver copies the test past its first call of Withdraw")
	}
	for _, n := range res.Notes {
		if strings.Contains(n.Text, "compile") {
			t.Errorf("note %q", n)
		}
	}
}

// TestSetupWithFuncLit: a pool built with a function literal over the
// test's own variables, started by Start and stopped by Stop, is driven
// with that code copied: the construction, Start before the calls, Stop
// after them.
func TestSetupWithFuncLit(t *testing.T) {
	res := generateIn(t, "drvpool")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	t.Logf("%s", src)
	var found *Driver
	for _, d := range res.Drivers["subjects/drvpool"] {
		if d.Calls == "Submit and Submit" {
			found = &d
		}
	}
	if found == nil {
		t.Fatalf("no driver calling Submit and Submit (notes %q)", res.Notes)
	}
	if found.Setup != "TestPool (pool_test.go:17)" {
		t.Errorf("setup %q, want TestPool (pool_test.go:17)", found.Setup)
	}
	body := src[strings.Index(src, "func "+found.Test+"("):]
	for _, want := range []string{"p := NewPool(2, func(x int) {", "sum += x", "p.Start()\n", "p.Submit(3)", "p.Submit(4)", "Cleanup: func() {\n\t\t\t\tp.Stop()"} {
		if !strings.Contains(body, want) {
			t.Errorf("driver lacks %q", want)
		}
	}
}

// TestSetupConstructionOnly: a type its own tests construct is built as
// they build it (the first constant construction, NewPool(-1), fails and
// returns nil), leaving out an external test's own assertion helper; a
// receiver that a New returning an interface builds is asserted to the
// type.
func TestSetupConstructionOnly(t *testing.T) {
	res := generateIn(t, "drvctor")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	t.Logf("%s", src)
	want := map[string][]string{
		"Put and Put":           {"p, err := NewPool(2, WithName(name))", "up to its first call of Name: its construction of the receiver only", "p.Put("},
		"Inc and Inc":           {"c := NewCounter()", "// Left out: line 26, a call of the test's own helper.", "c.Inc()"},
		"Mark and Mark":         {"tm := NewTimer(\"t\")", "tm.meter.Mark()"},
		"Publish and Subscribe": {"b := New()", "b.(*EventBus).Publish(\"a\")", "b.(*EventBus).Subscribe(\"a\", func() { n++ })"},
	}
	for _, d := range res.Drivers["subjects/drvctor"] {
		ws, ok := want[d.Calls]
		if !ok {
			continue
		}
		delete(want, d.Calls)
		if d.Setup == "" {
			t.Errorf("%s: no setup from the tests", d.Calls)
		}
		body := src[strings.Index(src, "func "+d.Test+"("):]
		body = body[:strings.Index(body, "\n}\n")]
		for _, w := range ws {
			if !strings.Contains(body, w) {
				t.Errorf("%s: driver lacks %q", d.Calls, w)
			}
		}
		if strings.Contains(body, "NewPool(-1)") || strings.Contains(body, "new(") {
			t.Errorf("%s: driver builds the receiver as no valid test does", d.Calls)
		}
	}
	for calls := range want {
		t.Errorf("no driver calling %s (notes %q)", calls, res.Notes)
	}
}

// TestSetupImportsOnlyTheTests: a setup that needs a package only the
// tests import (go-quartz's job tests: its internal/assert) compiles in
// the driver file, which may import what the tests import.
func TestSetupImportsOnlyTheTests(t *testing.T) {
	res := generateIn(t, "drvimport")
	var found *Driver
	for _, d := range res.Drivers["subjects/drvimport"] {
		if d.Calls == "Inc and Inc" {
			found = &d
		}
	}
	if found == nil {
		t.Fatalf("no driver calling Inc and Inc (notes %q)", res.Notes)
	}
	if !strings.HasPrefix(found.Setup, "TestInc (") {
		t.Errorf("setup %q, want TestInc's (notes %q)", found.Setup, res.Notes)
	}
	// A variable of the external test set once from a constant is
	// copied (go-quartz's worldtimeapiURL).
	for _, b := range res.Files {
		for _, w := range []string{"var pecanvetx_first = 1", "l := ledger.NewLedger(pecanvetx_first)"} {
			if !strings.Contains(string(b), w) {
				t.Errorf("the driver file lacks %q:\n%s", w, b)
			}
		}
	}
	for _, n := range res.Notes {
		if strings.Contains(n.Text, "compile") {
			t.Errorf("note %q", n.Text)
		}
	}
}

// TestSetupImportCycle: a test that uses a package importing the package
// under test (go-quartz's quartz tests build jobs with its job package)
// gives no setup, whose import would be a cycle in the driver file: the
// setup comes from another test, and nothing fails to compile.
func TestSetupImportCycle(t *testing.T) {
	res := generateIn(t, "drvcycle")
	n := 0
	for _, d := range res.Drivers["subjects/drvcycle"] {
		if d.Type != "Box" || !strings.Contains(d.Calls, "Inc") {
			continue
		}
		n++
		if !strings.HasPrefix(d.Setup, "TestPlain (") {
			t.Errorf("%s: setup %q, want TestPlain's", d.Calls, d.Setup)
		}
	}
	if n == 0 {
		t.Fatalf("no driver calling Inc (notes %q)", res.Notes)
	}
	for _, n := range res.Notes {
		if strings.Contains(n.Text, "compile") {
			t.Errorf("note %q", n.Text)
		}
	}
	for _, b := range res.Files {
		if strings.Contains(string(b), "subjects/drvcycle/use") {
			t.Errorf("the driver file imports use:\n%s", b)
		}
	}
}

// TestGenericType: a generic type is driven as an instance: with the
// setup of a test, the instance the test builds (and its arguments);
// without tests, the first of int, string and any that satisfies each
// constraint, built with the generic constructor instantiated alike.
func TestGenericType(t *testing.T) {
	for _, tc := range []struct {
		pkg   string
		calls string
		want  []string
	}{
		{"drvgeneric", "Add and Add", []string{"// From TestAdd (cache_test.go:7), up to its first call of Add.", "c := New[string, float64]()", `c.Add("a", 1)`, `c.Add("a", 2)`}},
		{"drvgenericnotest", "Add and Len", []string{"of *Cache[int, int] from two goroutines", "x := New[int, int]()", "x.Add(1, 1)"}},
		// Built with Of, the package's function returning it; the
		// argument of its own type built alike, not nil.
		{"drvof", "AddAll and AddAll", []string{"x := Of[int]()", "x.AddAll(Of[int]())"}},
	} {
		res := generateIn(t, tc.pkg)
		var src string
		for _, b := range res.Files {
			src = string(b)
		}
		var found *Driver
		for _, d := range res.Drivers["subjects/"+tc.pkg] {
			if d.Calls == tc.calls {
				found = &d
			}
		}
		if found == nil {
			t.Errorf("%s: no driver calling %s (notes %q)\n%s", tc.pkg, tc.calls, res.Notes, src)
			continue
		}
		i := strings.Index(src, "// "+found.Test+" calls")
		if i < 0 {
			t.Errorf("%s: no function %s", tc.pkg, found.Test)
			continue
		}
		body := src[i:]
		if j := strings.Index(body[1:], "\n// "+Prefix); j >= 0 {
			body = body[:j+1]
		}
		for _, want := range tc.want {
			if !strings.Contains(body, want) {
				t.Errorf("%s: driver lacks %q:\n%s", tc.pkg, want, body)
			}
		}
		for _, c := range res.Candidates["subjects/"+tc.pkg] {
			if c.Driver == "" && strings.Contains(c.NoDriver, "generic") {
				t.Errorf("%s: candidate %s not driven: %s", tc.pkg, c.ID, c.NoDriver)
			}
		}
	}
}

// TestSetupAcquired: a receiver the tests get from another method
// (Pool.Acquire) and Release, with a constructor that the external
// test's own helper builds: the helper (and the type it uses) is copied
// into the driver file under a name of its own, and the driver runs on
// the acquired resource, not on a zero Resource that panics.
func TestSetupAcquired(t *testing.T) {
	res := generateIn(t, "drvacquire")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	t.Logf("%s", src)
	n := 0
	for _, d := range res.Drivers["subjects/drvacquire"] {
		if d.Type != "Resource" {
			continue
		}
		n++
		if !strings.HasPrefix(d.Setup, "TestAcquire (acquire_x_test.go:") {
			t.Errorf("%s: setup %q, want TestAcquire's", d.Calls, d.Setup)
		}
		body := src[strings.Index(src, "func "+d.Test+"("):]
		body = body[:strings.Index(body, "\n}\n")]
		for _, w := range []string{"ctor, _ := pecanvetx_newConstructor()", "p := NewPool(ctor)", "res := p.Acquire()"} {
			if !strings.Contains(body, w) {
				t.Errorf("%s: driver lacks %q", d.Calls, w)
			}
		}
		if strings.Contains(body, "new(Resource)") {
			t.Errorf("%s: driver builds a zero Resource", d.Calls)
		}
	}
	if n == 0 {
		t.Fatalf("no driver of Resource (notes %q)", res.Notes)
	}
	for _, w := range []string{"func pecanvetx_newConstructor() (func() int, *pecanvetx_counter) {", "type pecanvetx_counter struct", "func (c *pecanvetx_counter) next() int"} {
		if strings.Count(src, w) != 1 {
			t.Errorf("the driver file has %d copies of %q, want 1", strings.Count(src, w), w)
		}
	}
}

// TestFits: constants harvested from a call of a generic type's method
// on another instance are not passed where they do not fit (haxmap's
// tests call GetOrSet(1, "one") on a Map[int, string], and a setup
// builds a Map[int, *Animal]); small values are passed instead.
func TestFits(t *testing.T) {
	animal := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, nil, "Animal", nil), types.NewStruct(nil, nil), nil))
	param := func(ts ...types.Type) *types.Tuple {
		var vs []*types.Var
		for _, t := range ts {
			vs = append(vs, types.NewParam(token.NoPos, nil, "", t))
		}
		return types.NewTuple(vs...)
	}
	intT, strT := types.Typ[types.Int], types.Typ[types.String]
	for _, tc := range []struct {
		args []string
		sig  *types.Signature
		want bool
	}{
		{[]string{"1", `"one"`}, types.NewSignatureType(nil, nil, nil, param(intT, strT), nil, false), true},
		{[]string{"1", `"one"`}, types.NewSignatureType(nil, nil, nil, param(intT, animal), nil, false), false},
		{[]string{`"1"`}, types.NewSignatureType(nil, nil, nil, param(intT), nil, false), false},
		{[]string{"1"}, types.NewSignatureType(nil, nil, nil, param(intT, intT), nil, false), false},
		{[]string{"3", "4", "5"}, types.NewSignatureType(nil, nil, nil, param(types.NewSlice(intT)), nil, true), true},
		{[]string{"3", `"x"`}, types.NewSignatureType(nil, nil, nil, param(types.NewSlice(intT)), nil, true), false},
		{[]string{"2.5"}, types.NewSignatureType(nil, nil, nil, param(types.Typ[types.Float64]), nil, false), true},
		{[]string{"undefinedAmount"}, types.NewSignatureType(nil, nil, nil, param(intT), nil, false), true},
	} {
		if got := fits(tc.args, tc.sig); got != tc.want {
			t.Errorf("fits(%q, %v) = %v, want %v", tc.args, tc.sig, got, tc.want)
		}
	}
}

// TestSetupPositionalLiteral: a setup copied from an internal test that
// builds its own type with a positional literal of an unexported field
// (haxmap's &Animal{"cat"}) compiles: it is written keyed.
func TestSetupPositionalLiteral(t *testing.T) {
	res := generateIn(t, "drvlit")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	n := 0
	for _, d := range res.Drivers["subjects/drvlit"] {
		if !strings.Contains(d.Calls, "Put") {
			continue
		}
		n++
		if !strings.HasPrefix(d.Setup, "TestPut (") {
			t.Errorf("%s: setup %q, want TestPut's (notes %q)", d.Calls, d.Setup, res.Notes)
		}
	}
	if n == 0 {
		t.Fatalf("no driver calling Put (notes %q)", res.Notes)
	}
	if !strings.Contains(src, `cat := &animal{name: "cat"}`) {
		t.Errorf("the literal is not keyed:\n%s", src)
	}
}

// TestNoSetupSaysWhy: a driver of a type no test constructs says so, and
// where the package builds one, in its comment and in the skip its
// zero-value receiver's panic causes.
func TestNoSetupSaysWhy(t *testing.T) {
	res := generateIn(t, "drvnosetup")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	want := "no test or example constructs buffer (the package builds one in Run (buf.go:27), which no driver copies)"
	if !strings.Contains(src, "// "+want+".") {
		t.Errorf("the driver's comment lacks %q:\n%s", want, src)
	}
	if !strings.Contains(src, `}, "`+want+`; the driver's receiver is its zero value")`) {
		t.Errorf("the driver does not hand pecanvetDrive the reason:\n%s", src)
	}
}

// TestNoTestsCandidates: a package without tests (issue 27's account
// shape) has its candidates listed, each driven by the driver of its
// pair, so that check -candidates says what became of it.
func TestNoTestsCandidates(t *testing.T) {
	res := generateIn(t, "drvgenericnotest")
	cands := res.Candidates["subjects/drvgenericnotest"]
	if len(cands) == 0 {
		t.Fatalf("no candidates listed (notes %q)", res.Notes)
	}
	for _, c := range cands {
		if c.Driver == "" {
			t.Errorf("candidate %s at %s (%s) not driven: %s", c.ID, c.Site, c.Contexts, c.NoDriver)
		}
	}
}

// TestNoConstructionHookDrivers: a method that the package calls only
// through its interface in a constructor (Counter.Config in NewLimiter)
// gets no driver, with a note; one called at run time too (Resize, from
// Limiter.Grow) keeps its drivers.
func TestNoConstructionHookDrivers(t *testing.T) {
	res := generateIn(t, "drvhook")
	ds := res.Drivers["subjects/drvhook"]
	resize := false
	for _, d := range ds {
		if strings.Contains(d.Calls, "Config") {
			t.Errorf("a driver calling the construction hook: %+v", d)
		}
		resize = resize || strings.Contains(d.Calls, "Resize")
	}
	if !resize {
		t.Errorf("no driver calling Resize: %+v (notes %q)", ds, res.Notes)
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n.Text, "no drivers calling local.Config: the package calls it only from NewLimiter")
	}
	if !found {
		t.Errorf("no note on the hook: %q", res.Notes)
	}
}

// TestNoPrivateInitDrivers: a method of an unexported type no user can
// reach that the package calls only in its constructor (drvinit's
// shard.Init, phuslu/lru's shard Init) gets no driver, with a note; one
// called at run time (Reset, from Cache.Clear) keeps its drivers, and so
// does one of a type handed out as an exported interface (gate.Size).
func TestNoPrivateInitDrivers(t *testing.T) {
	res := generateIn(t, "drvinit")
	ds := res.Drivers["subjects/drvinit"]
	reset, gateInit := false, false
	for _, d := range ds {
		if d.Type == "shard" && strings.Contains(d.Calls, "Init") {
			t.Errorf("a driver calling the constructor's Init: %+v", d)
		}
		reset = reset || strings.Contains(d.Calls, "Reset")
		gateInit = gateInit || d.Type == "gate" && strings.Contains(d.Calls, "Size")
	}
	if !reset {
		t.Errorf("no driver calling Reset: %+v (notes %q)", ds, res.Notes)
	}
	// gate reaches the user through the Gater that NewGate returns.
	if !gateInit {
		t.Errorf("no driver calling gate.Size: %+v (notes %q)", ds, res.Notes)
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n.Text, "no drivers calling shard.Init: the package calls it only from NewCache")
	}
	if !found {
		t.Errorf("no note on Init: %q", res.Notes)
	}
}

// TestOneGoroutineDoc: a method's doc that keeps it to one goroutine at
// a time, or says it is not safe to call concurrently, is recognised;
// one that only mentions goroutines, or calls the value the method
// returns unsafe for concurrent use, is not.
func TestOneGoroutineDoc(t *testing.T) {
	for doc, want := range map[string]bool{
		"Add moves the clock.\nThis should only be called from a single goroutine at a time.":  true,
		"Reset must only be called from one goroutine.":                                        true,
		"Close must not be called concurrently with Write.":                                    true,
		"Flush must never be called from multiple goroutines.":                                 true,
		"Step is not safe to call concurrently.":                                               true,
		"Get returns a Buffer, which is not safe for concurrent use.":                          false,
		"AfterFunc executes f in its own goroutine.":                                           false,
		"Sleep pauses the goroutine. The clock must be moved forward in a separate goroutine.": false,
		"Get is safe for concurrent use by multiple goroutines.":                               false,
		"": false,
	} {
		if got := oneGoroutineDoc(doc); got != want {
			t.Errorf("oneGoroutineDoc(%q) = %v, want %v", doc, got, want)
		}
	}
}

// TestNoOneGoroutineDrivers: no driver calls two of Clock's methods
// whose docs keep them to one goroutine at a time (Add, Set), or that
// call one on their own receiver (WaitAll calls c.Set), and a note says
// why; pairs with Now keep their drivers, and Follow, which sets another
// clock, is not restricted.
func TestNoOneGoroutineDrivers(t *testing.T) {
	res := generateIn(t, "drvserial")
	ds := res.Drivers["subjects/drvserial"]
	restricted := map[string]bool{"Add": true, "Set": true, "WaitAll": true}
	now := false
	for _, d := range ds {
		m0, m1, _ := strings.Cut(d.Calls, " and ")
		if restricted[m0] && restricted[m1] {
			t.Errorf("a driver calling %s: %+v", d.Calls, d)
		}
		now = now || d.Calls == "Add and Now"
	}
	if !now {
		t.Errorf("no driver calling Add and Now: %+v (notes %q)", ds, res.Notes)
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n.Text, "no driver calling Clock.Add and WaitAll: their docs keep them to one goroutine at a time (documented: Add; WaitAll calls Set)")
	}
	if !found {
		t.Errorf("no note on Add and WaitAll: %q", res.Notes)
	}
	dir, err := filepath.Abs("testdata/subjects/drvserial")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := load.Load(context.Background(), dir, []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := false
	for _, p := range pkgs.List {
		if p.PkgPath != "subjects/drvserial" || p.ID != p.PkgPath {
			continue
		}
		checked = true
		named := p.Types.Scope().Lookup("Clock").Type().(*types.Named)
		for m, want := range map[string]string{"Add": "Add", "Set": "Set", "WaitAll": "Set", "Follow": "", "Now": ""} {
			if got := oneGoroutine(p, named, m); got != want {
				t.Errorf("oneGoroutine(Clock.%s) = %q, want %q", m, got, want)
			}
		}
	}
	if !checked {
		t.Errorf("subjects/drvserial not loaded: %d packages", len(pkgs.List))
	}
}

// TestUnsafeSelfDoc: a doc that says its function is not thread safe,
// not one that says so of what the function returns.
func TestUnsafeSelfDoc(t *testing.T) {
	for doc, want := range map[string]bool{
		"UnmarshalJSON stores the previous JSON encoding.  Note, this is *NOT* thread safe.": true,
		"Load reads the file. Load is not safe for concurrent use.":                          true,
		"It is not goroutine-safe.":                                     true,
		"This method is also not safe to call concurrently.":            true,
		"Name returns a Builder, which is not safe for concurrent use.": false,
		"MarshalJSON encodes a counter.  It is thread safe.":            false,
		"Reset must only be called from one goroutine.":                 false,
		"": false,
	} {
		if got := unsafeSelfDoc(doc, "Load"); got != want {
			t.Errorf("unsafeSelfDoc(%q) = %v, want %v", doc, got, want)
		}
	}
}

// TestNoNotThreadSafeDrivers: no driver calls Window.Restore, which the
// package calls only from Counter.UnmarshalJSON, documented not thread
// safe (cep21/circuit's RollingBuckets.Store beside Advance: a divide by
// zero the driver's own misuse made), nor Window.Reload or
// Counter.UnmarshalJSON, whose own docs say so; notes say why.
// Window.Resize, called also from Grow, whose doc says nothing, and
// Describe, whose caller's doc speaks of its result, keep their drivers.
func TestNoNotThreadSafeDrivers(t *testing.T) {
	res := generateIn(t, "drvrestore")
	kept := map[string]bool{}
	for _, d := range res.Drivers["subjects/drvrestore"] {
		m0, m1, _ := strings.Cut(d.Calls, " and ")
		for _, m := range []string{m0, m1} {
			if d.Type == "Window" && (m == "Restore" || m == "Reload") || d.Type == "Counter" && m == "UnmarshalJSON" {
				t.Errorf("a driver calling %s.%s: %+v", d.Type, m, d)
			}
			kept[d.Type+"."+m] = true
		}
	}
	for _, m := range []string{"Window.Advance", "Window.Resize", "Window.Describe", "Counter.Grow"} {
		if !kept[m] {
			t.Errorf("no driver calling %s (drivers %+v, notes %q)", m, res.Drivers["subjects/drvrestore"], res.Notes)
		}
	}
	for _, want := range []string{
		"no drivers calling Window.Restore: the package calls it only from UnmarshalJSON, documented not thread safe",
		"no drivers calling Window.Reload: its doc says it is not thread safe",
		"no drivers calling Counter.UnmarshalJSON: its doc says it is not thread safe",
	} {
		found := false
		for _, n := range res.Notes {
			found = found || strings.Contains(n.Text, want)
		}
		if !found {
			t.Errorf("no note %q: %q", want, res.Notes)
		}
	}
}

// TestNoEndDrivers: no driver calls defaultPolicy.Close, a step of its
// exported owner's teardown (Cache.Close), or Allocator.Reset, which the
// package calls only on an allocator AllocatorPool.Get then hands out;
// notes say why. ticker.Stop, called at run time too (Cache.Pause), and
// Meter.Reset, called on a value its caller holds (Restart), and
// Window.Reset, called on a window others still count in (Roller.Roll),
// keep their drivers. Collector.Init, called only by NewCollector on the
// collector it returns, has no driver; Session.Init, called on a session
// its caller holds (Reopen), keeps its drivers.
func TestNoEndDrivers(t *testing.T) {
	res := generateIn(t, "drvend")
	ds := res.Drivers["subjects/drvend"]
	kept := map[string]bool{}
	for _, d := range ds {
		t.Logf("driver %s: %s", d.Type, d.Calls)
		m0, m1, _ := strings.Cut(d.Calls, " and ")
		for _, m := range []string{m0, m1} {
			if (d.Type == "defaultPolicy" && m == "Close") || (d.Type == "Allocator" && m == "Reset") || (d.Type == "Collector" && m == "Init") {
				t.Errorf("a driver calling %s.%s: %+v", d.Type, m, d)
			}
			kept[d.Type+"."+m] = true
		}
	}
	for _, m := range []string{"ticker.Stop", "Meter.Reset", "Window.Reset", "Session.Init"} {
		if !kept[m] {
			t.Errorf("no driver calling %s: %+v (notes %q)", m, ds, res.Notes)
		}
	}
	for _, want := range []string{
		"no drivers calling defaultPolicy.Close: the package calls it only in Cache.Close, as a step of its owner's teardown",
		"no drivers calling Allocator.Reset: the package calls it only in AllocatorPool.Get, on a value it then hands out",
		"no drivers calling Collector.Init: the package calls it only in NewCollector, on a value it then hands out",
	} {
		found := false
		for _, n := range res.Notes {
			found = found || strings.Contains(n.Text, want)
		}
		if !found {
			t.Errorf("no note %q: %q", want, res.Notes)
		}
	}
}

// TestNoEmbeddedLockDrivers: in a package without tests, the methods an
// embedded sync.Mutex or sync.RWMutex promotes (paho's TestLog and MIDs:
// Lock, Unlock, TryLock) are no driver's calls, nor a Lock of the type's
// own over an embedded Unlock, nor a decoding method (notCalled); the
// type's other methods are.
func TestNoEmbeddedLockDrivers(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module e\n\ngo 1.22\n",
		"e.go": `package e

import "sync"

type Log struct {
	sync.Mutex
	n int
}

func (l *Log) Add() { l.Lock(); l.n++; l.Unlock() }
func (l *Log) N() int { l.Lock(); defer l.Unlock(); return l.n }

type Table struct {
	sync.RWMutex
	m map[int]int
}

func NewTable() *Table { return &Table{m: map[int]int{}} }
func (t *Table) Put(k int) { t.Lock(); t.m[k] = 1; t.Unlock() }

// Sortable's Lock is its own and its Unlock the embedded mutex's
// (cilium/statedb's SortableMutex).
type Sortable struct {
	sync.Mutex
	d int
}

func (s *Sortable) Lock()  { s.Mutex.Lock(); s.d++ }
func (s *Sortable) D() int { return s.d }
func (s *Sortable) Bump()  { s.Lock(); s.d++; s.Unlock() }

type Doc struct {
	mu sync.Mutex
	m  map[string]int
}

func NewDoc() *Doc { return &Doc{m: map[string]int{}} }
func (d *Doc) UnmarshalJSON(b []byte) error { d.mu.Lock(); d.m = map[string]int{"n": len(b)}; d.mu.Unlock(); return nil }
func (d *Doc) Scan(src any) error           { return d.UnmarshalJSON(nil) }
func (d *Doc) Get(k string) int             { d.mu.Lock(); defer d.mu.Unlock(); return d.m[k] }
func (d *Doc) Set(k string)                 { d.mu.Lock(); d.m[k] = 1; d.mu.Unlock() }
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := load.Load(context.Background(), dir, []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(context.Background(), pkgs)
	if err != nil {
		t.Fatal(err)
	}
	ds := res.Drivers["e"]
	var calls []string
	for _, d := range ds {
		calls = append(calls, d.Type+": "+d.Calls)
		for _, m := range strings.Fields(strings.ReplaceAll(d.Calls, " and ", " ")) {
			switch m {
			case "Lock", "Unlock", "TryLock", "RLock", "RUnlock", "TryRLock", "RLocker":
				t.Errorf("a driver calls the embedded lock's %s: %s of %s", m, d.Calls, d.Type)
			case "UnmarshalJSON", "Scan":
				t.Errorf("a driver calls the decoding method %s: %s of %s", m, d.Calls, d.Type)
			}
		}
	}
	for _, want := range []string{"Log: Add and N", "Table: Put and Put", "Sortable: Bump and D", "Doc: Get and Set"} {
		if !slices.Contains(calls, want) {
			t.Errorf("no driver %q; drivers %q (notes %q)", want, calls, res.Notes)
		}
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n.Text, "no drivers calling Doc.Scan: a decoding method fills a value no other goroutine holds yet") || strings.Contains(n.Text, "no drivers calling Doc.UnmarshalJSON: a decoding method")
	}
	if !found {
		t.Errorf("no note on Doc's decoding methods: %q", res.Notes)
	}
}

// TestSetupReturnsEarly: a test that returns early before it builds the
// receiver (logrus's skipReportCaller guard) gives a setup whose bare
// return is made a skip: the setup is used, and the file parses. The
// return did not compile in the driver's case function, with a type
// checker's message of three lines, and that message, copied into the
// driver's comment as it was, put its second line outside the comment:
// the file did not parse and every driver of the package was dropped.
func TestSetupReturnsEarly(t *testing.T) {
	res := generateIn(t, "drvreturn")
	ds := res.Drivers["subjects/drvreturn"]
	if len(ds) == 0 {
		t.Fatalf("no drivers (notes %q)", res.Notes)
	}
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), File, src, parser.SkipObjectResolution); err != nil {
		t.Fatalf("the driver file does not parse: %v\n%s", err, src)
	}
	for _, want := range []string{"set up as TestNested (log_test.go:", "if pecanvetx_skipCaller(t) {\n\t\t\t" + skipReturn + "\n", "func pecanvetx_skipCaller(t *testing.T) bool {"} {
		if !strings.Contains(src, want) {
			t.Errorf("the driver source lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "does not compile") {
		t.Errorf("a setup was dropped:\n%s", src)
	}
	// The returns of the copied helper are its own.
	if n := strings.Count(src, skipReturn); n != 2 { // one per driver (WithField and WithFields, WithFields and WithFields)
		t.Errorf("%d skips for returns, want 2:\n%s", n, src)
	}
}

// TestTypeCheckOneLine: a type checker's message of several lines comes
// out of typeCheck as one line, for the driver's comment (see
// TestSetupReturnsEarly).
func TestTypeCheckOneLine(t *testing.T) {
	dir, err := filepath.Abs("testdata/subjects/ledger")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir, Tests: true}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var host *packages.Package
	for _, p := range pkgs {
		if p.PkgPath == "subjects/ledger" && strings.Contains(p.ID, "[") {
			host = p
		}
	}
	if host == nil {
		t.Fatal("no test variant of subjects/ledger")
	}
	src := "package ledger\n\nimport \"testing\"\n\nfunc " + Prefix + "X(t *testing.T) {\n\t_ = func() int { return }\n}\n"
	bad, errs := typeCheck(host, nil, src, &stdTypes{ctx: context.Background(), dir: dir})
	msg, ok := bad[Prefix+"X"]
	if !ok || len(errs) == 0 {
		t.Fatalf("no error for the driver: %q, %q", bad, errs)
	}
	if want := "not enough return values have () want (int)"; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	for _, e := range errs {
		if strings.Contains(e, "\n") {
			t.Errorf("an error of several lines: %q", e)
		}
	}
}

// TestNoInitializerByUseDrivers: a method named Init that every test
// calls first on the screen it has just made gets no driver, with a
// note (tcell's Screen.Init, trial 17's twelve false races); Grid's Init,
// which a test calls again on a grid in use, keeps its drivers.
func TestNoInitializerByUseDrivers(t *testing.T) {
	res := generateIn(t, "drvinituse")
	ds := res.Drivers["subjects/drvinituse"]
	grid, resize := false, false
	for _, d := range ds {
		if strings.Contains(d.Calls, "Init") && d.Type == "sim" {
			t.Errorf("a driver calling the screen's initializer: %+v", d)
		}
		grid = grid || strings.Contains(d.Calls, "Init") && d.Type == "Grid"
		resize = resize || strings.Contains(d.Calls, "Resize")
	}
	if !grid || !resize {
		t.Errorf("want drivers calling Grid.Init and sim.Resize: %+v (notes %q)", ds, res.Notes)
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n.Text, "no drivers calling sim.Init: every test calls it first")
	}
	if !found {
		t.Errorf("no note on the initializer: %q", res.Notes)
	}
}

// TestStdTypesFromLoad: the standard packages a driver imports are taken
// from the loaded packages' imports where they are there, the same
// types.Package as the package's own (no load of their own): os too, which
// the test main imports (without it in stdImports, importer.Default ran
// a go list for it); one no loaded package imports (time, for ledger) is
// still loaded, from export data, complete.
func TestStdTypesFromLoad(t *testing.T) {
	dir, err := filepath.Abs("testdata/subjects/ledger")
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := load.Load(context.Background(), dir, []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	inLoad := fromImports(loaded.List, stdImports)
	if inLoad["testing"] == nil || inLoad["reflect"] == nil || inLoad["os"] == nil {
		t.Fatalf("the test main's testing, reflect and os are not found among the imports: %v", inLoad)
	}
	std := &stdTypes{ctx: context.Background(), dir: dir, loadedList: loaded.List}
	for _, path := range stdImports {
		got, err := std.Import(path)
		if err != nil || got == nil || !got.Complete() || got.Path() != path {
			t.Fatalf("Import(%s) = %v, %v", path, got, err)
		}
		if want := inLoad[path]; want != nil && got != want {
			t.Errorf("Import(%s) is not the loaded package's %s", path, path)
		}
	}
	// A test variant of a package is not taken for the package.
	variant := &packages.Package{ID: "fmt [x.test]", PkgPath: "fmt", Types: types.NewPackage("fmt", "fmt")}
	variant.Types.MarkComplete()
	if got := fromImports([]*packages.Package{{Imports: map[string]*packages.Package{"fmt": variant}}}, driverImports); len(got) > 0 {
		t.Errorf("a test variant was taken: %v", got)
	}
}

// TestNoCallbackRegistrationDrivers: a method that only stores its
// callback in a field, with no lock, that nothing else writes, that the
// package never calls, of a type whose constructors start no goroutine
// (drvregister's Conn, nbio's ClientConn.OnClose) gets no driver, with a
// note. Driven as before: the same setter of a type whose constructor
// starts a goroutine (Reader), a setter of a value (SetTimeout), one that
// locks (SetCallback, as ttlcache's), one whose field Close clears
// (Cleared.OnDone), one the package calls (Rearmed.OnFire).
func TestNoCallbackRegistrationDrivers(t *testing.T) {
	res := generateIn(t, "drvregister")
	ds := res.Drivers["subjects/drvregister"]
	want := map[string]bool{"Reader.OnClose": false, "Deadline.SetTimeout": false, "Locked.SetCallback": false, "Cleared.OnDone": false, "Rearmed.OnFire": false}
	connDo := false
	for _, d := range ds {
		if d.Type == "Conn" && strings.Contains(d.Calls, "OnClose") {
			t.Errorf("a driver calling the registration Conn.OnClose: %+v", d)
		}
		connDo = connDo || d.Type == "Conn" && d.Calls == "Close and Do"
		for k := range want {
			typ, m, _ := strings.Cut(k, ".")
			if d.Type == typ && strings.Contains(d.Calls, m) {
				want[k] = true
			}
		}
	}
	if !connDo {
		t.Errorf("no driver calling Conn's Close and Do: %+v (notes %q)", ds, res.Notes)
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("no driver calling %s: %+v (notes %q)", k, ds, res.Notes)
		}
	}
	found := false
	for _, n := range res.Notes {
		found = found || strings.Contains(n.Text, "no drivers calling Conn.OnClose: it only stores a callback in onClose")
		if strings.Contains(n.Text, "a callback in") && !strings.Contains(n.Text, "Conn.OnClose") {
			t.Errorf("a registration note on another setter: %q", n.Text)
		}
	}
	if !found {
		t.Errorf("no note on Conn.OnClose: %q", res.Notes)
	}
}

// TestSetupShadowsType: a test's variable named after the receiver's
// type (`ledger := NewLedger()`, an interface over *ledger) is asserted
// through the file's alias of *ledger, so the driver keeps the setup
// (before, `ledger.(*ledger)` did not compile and it was built without).
func TestSetupShadowsType(t *testing.T) {
	res := generateIn(t, "drvshadow")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	n := 0
	for _, d := range res.Drivers["subjects/drvshadow"] {
		if d.Calls != "Withdraw and Withdraw" {
			continue
		}
		n++
		if !strings.HasPrefix(d.Setup, "TestWithdraw (") {
			t.Errorf("%s: setup %q, want TestWithdraw's (notes %q)", d.Calls, d.Setup, res.Notes)
		}
	}
	if n == 0 {
		t.Fatalf("no driver calling Withdraw and Withdraw (notes %q)", res.Notes)
	}
	for _, want := range []string{"type pecanvetT_ledger = *ledger", "ledger.(pecanvetT_ledger).Withdraw(7)"} {
		if !strings.Contains(src, want) {
			t.Errorf("driver lacks %q:\n%s", want, src)
		}
	}
	for _, n := range res.Notes {
		if strings.Contains(n.Text, "compile") {
			t.Errorf("note %q", n)
		}
	}
}

// TestSetupAssignedOnly: a variable of the copied setup that it only
// assigns (in a subscriber's function literal), read by the test after the
// cut, is marked used; the setup compiles and is kept (simonfxr/pubsub's
// TestSubscribe: "declared and not used: fired", all drivers built
// without the setup).
func TestSetupAssignedOnly(t *testing.T) {
	res := generateIn(t, "drvassigned")
	var found *Driver
	for _, d := range res.Drivers["subjects/drvassigned"] {
		if d.Calls == "Publish and Publish" {
			found = &d
		}
	}
	if found == nil {
		t.Fatalf("no driver calling Publish and Publish (notes %q)", res.Notes)
	}
	if found.Setup != "TestPublish (bus_test.go:13)" {
		t.Errorf("setup %q, want TestPublish (bus_test.go:13); notes %q", found.Setup, res.Notes)
	}
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	body := src[strings.Index(src, "func "+found.Test+"("):]
	for _, want := range []string{"fired = v", "_ = &fired\n", "_ = &count\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("driver lacks %q:\n%s", want, body)
		}
	}
	// The mark takes the address: a read would race with what the
	// copied code started (cache2go's TestCallbacks and its timer).
	for _, bad := range []string{"_ = fired\n", "_ = count\n"} {
		if strings.Contains(body, bad) {
			t.Errorf("driver reads the variable to mark it used (%q):\n%s", bad, body)
		}
	}
}
