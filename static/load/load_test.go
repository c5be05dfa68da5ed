package load_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/dynamic/instrument"
	"github.com/pecanvet/pecanvet/static/driver"
	"github.com/pecanvet/pecanvet/static/load"
)

const bank = `package bank

import "sync"

type Account struct {
	mu      sync.Mutex
	balance int
}

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	b := a.balance
	a.mu.Unlock()
	a.mu.Lock()
	a.balance = b + n
	a.mu.Unlock()
}

func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}
`

const bankTest = `package bank

import "testing"

func TestDeposit(t *testing.T) {
	a := &Account{}
	a.Deposit(1)
	if a.Balance() != 1 {
		t.Fatal(a.Balance())
	}
}
`

// snapshot is what a stage could change of the loaded packages.
type snapshot struct {
	pkg       *packages.Package
	syntax    int
	goFiles   []string
	types     any
	typesInfo any
	imports   int
}

func take(l *load.Packages) []snapshot {
	var s []snapshot
	for _, p := range l.List {
		s = append(s, snapshot{p, len(p.Syntax), append([]string(nil), p.GoFiles...), p.Types, p.TypesInfo, len(p.Imports)})
	}
	return s
}

// TestShared: driver generation and instrumentation share one load, in
// pipeline order. Neither changes the loaded packages: the instrumenter
// adds the generated driver to a copy of its host package, and drivers
// generated again from the same load are the same.
func TestShared(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{"go.mod": "module example.com/bank\n\ngo 1.24\n", "bank.go": bank, "bank_test.go": bankTest} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	loaded, err := load.Load(ctx, dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := take(loaded)
	drivers, err := driver.Generate(ctx, loaded)
	if err != nil {
		t.Fatal(err)
	}
	if len(drivers.Files) != 1 || len(drivers.Drivers["example.com/bank"]) != 1 {
		t.Fatalf("drivers %v, want one, for Deposit and Deposit (notes %v)", drivers.Drivers, drivers.Notes)
	}
	if !reflect.DeepEqual(take(loaded), before) {
		t.Errorf("driver.Generate changed the loaded packages")
	}
	inst, err := instrument.Instrument(ctx, instrument.Options{Packages: loaded, Extra: drivers.Files})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Cleanup()
	withDriver := false
	for _, p := range inst.Packages {
		for _, f := range p.Files {
			withDriver = withDriver || filepath.Base(f) == driver.File
		}
	}
	if !withDriver {
		t.Errorf("the driver was not instrumented with its package: %+v", inst.Packages)
	}
	if !reflect.DeepEqual(take(loaded), before) {
		t.Errorf("instrument.Instrument changed the loaded packages")
	}
	again, err := driver.Generate(ctx, loaded)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Files, drivers.Files) || !reflect.DeepEqual(again.Drivers, drivers.Drivers) {
		t.Errorf("drivers generated after instrumenting differ")
	}
}
