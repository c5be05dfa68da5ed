package driver

import (
	"context"
	"os"
	"path/filepath"
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
	// A string where Withdraw takes an int: what a wrong guess of an
	// argument would give.
	vals := &values{ctors: map[string]ctorCall{}, args: map[string][]string{"Ledger.Withdraw": {`"x"`}}}
	src, drivers, notes := emitChecked(host, pairs, vals, &stdTypes{ctx: context.Background(), dir: dir})
	if len(drivers) != 1 || drivers[0].Calls != "Balance and Balance" {
		t.Fatalf("drivers %+v, want only Balance and Balance", drivers)
	}
	if strings.Contains(src, "Withdraw") {
		t.Errorf("the dropped driver is still in the source:\n%s", src)
	}
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "calling Withdraw and Withdraw of Ledger dropped: it does not compile") {
		t.Errorf("notes %q, want one saying the Withdraw driver was dropped", notes)
	}
	if bad, errs := typeCheck(host, src, &stdTypes{ctx: context.Background(), dir: dir}); len(bad) > 0 || len(errs) > 0 {
		t.Errorf("the kept drivers do not type-check: %q", errs)
	}
}

// TestCallbackArgument: a method taking a function (atomiclimit's
// Work(f)) is called with a no-op function, not nil, which it would call
// and panic on (the driver would then skip as without a usable receiver).
func TestCallbackArgument(t *testing.T) {
	res := generateIn(t, "atomiclimit")
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	if !strings.Contains(src, ").Work(func() () { return })") {
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
