package instrument

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic"
)

// TestRuntimeStubTypes checks that the runtime stub the rewritten code is
// type-checked against gives every exported function's signature valid
// types: a type from a package the stub did not import (context.CancelFunc
// of rt.WithDeadline) is invalid, and then a rewrite such as cep21/circuit
// v4's `var cancel func(); ctx, cancel = context.WithDeadline(ctx, t)` does
// not type-check and is left on the real clock.
func TestRuntimeStubTypes(t *testing.T) {
	files, err := dynamic.RuntimeFiles()
	if err != nil {
		t.Fatal(err)
	}
	api, err := parseRuntimeAPI(files)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "rtstub.go", api.stub, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	std := importer.Default()
	conf := types.Config{Importer: std, Error: func(error) {}}
	stub, _ := conf.Check("rt", fset, []*ast.File{f}, nil)
	for _, name := range stub.Scope().Names() {
		fn, ok := stub.Scope().Lookup(name).(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
			for v := range tup.Variables() {
				if hasInvalid(v.Type()) {
					t.Errorf("rt.%s: %s has an invalid type in the stub", name, v.Type())
				}
			}
		}
	}

	// The assignment of cep21/circuit v4's circuit.go:288.
	src := `package p

import (
	"context"
	"time"

	rt "rt"
)

func f(ctx context.Context, d time.Time) {
	var cancel func()
	ctx, cancel = rt.WithDeadline(ctx, d)
	defer cancel()
	_ = ctx
}
`
	uf, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	uconf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if path == "rt" {
			return stub, nil
		}
		return std.Import(path)
	})}
	if _, err := uconf.Check("p", fset, []*ast.File{uf}, nil); err != nil {
		t.Errorf("rewritten WithDeadline assignment: %v", err)
	}
}

// hasInvalid reports whether t is or contains the invalid type.
func hasInvalid(t types.Type) bool {
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() == types.Invalid
	case *types.Pointer:
		return hasInvalid(t.Elem())
	case *types.Slice:
		return hasInvalid(t.Elem())
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for v := range tup.Variables() {
				if hasInvalid(v.Type()) {
					return true
				}
			}
		}
	}
	return false
}
