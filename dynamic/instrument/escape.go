package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// heapVars builds the SSA form of pkg and returns the declaring positions
// of its local variables (parameters, results and locals of functions and
// closures) that SSA allocates on the heap: those captured by a closure or
// whose address is taken (explicitly, or implicitly by a pointer-receiver
// method call or by slicing an array). Every other local lives in SSA
// registers or in a stack slot no other goroutine can reach, so its
// accesses are not instrumented.
func heapVars(pkg *packages.Package) map[token.Pos]bool {
	prog, spkgs := ssautil.Packages([]*packages.Package{pkg}, ssa.InstantiateGenerics)
	heap := make(map[token.Pos]bool)
	sp := spkgs[0]
	if sp == nil {
		return heap
	}
	sp.Build()
	var visit func(fn *ssa.Function)
	seen := make(map[*ssa.Function]bool)
	visit = func(fn *ssa.Function) {
		if fn == nil || seen[fn] {
			return
		}
		seen[fn] = true
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if a, ok := in.(*ssa.Alloc); ok && a.Heap && a.Pos().IsValid() {
					heap[a.Pos()] = true
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			visit(anon)
		}
	}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if obj, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					visit(prog.FuncValue(obj))
				}
			}
		}
	}
	visit(sp.Func("init"))
	return heap
}
