package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"go/types"
	pathpkg "path"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// checkError is an error found in rewritten code, at its original position.
type checkError struct {
	pos token.Position
	msg string
}

func (e checkError) Error() string { return fmt.Sprintf("%s: %s", e.pos, e.msg) }

// check type-checks a unit with its rewritten files (out[i] == nil: file i
// unchanged) and returns the errors, at the original positions the line
// directives give them.
func (ins *instrumenter) check(u *unit, out, srcs [][]byte) []checkError {
	changed := false
	for _, o := range out {
		if o != nil {
			changed = true
		}
	}
	if !changed {
		return nil
	}
	var errs []checkError
	var files []*ast.File
	mine := make(map[*ast.File]bool)
	cgo := false
	for i, f := range u.files {
		mine[f.syntax] = true
		if f.cgoTwin != nil {
			mine[f.cgoTwin] = true
			cgo = true
		}
		if out[i] == nil {
			if f.cgoTwin != nil {
				files = append(files, f.cgoTwin)
			} else {
				files = append(files, f.syntax)
			}
			continue
		}
		af, err := parser.ParseFile(ins.fset, f.path, out[i], parser.SkipObjectResolution|parser.AllErrors)
		if err != nil {
			if list, ok := err.(scanner.ErrorList); ok {
				for _, e := range list {
					errs = append(errs, checkError{e.Pos, e.Msg})
				}
			} else {
				errs = append(errs, checkError{token.Position{Filename: f.path}, err.Error()})
			}
			continue
		}
		files = append(files, af)
	}
	if len(errs) > 0 {
		return errs
	}
	for _, f := range u.pkg.Syntax {
		if !mine[f] {
			files = append(files, f) // cgo-generated files
		}
	}
	imp := ins.importerFor(u)
	conf := types.Config{
		Importer:    imp,
		FakeImportC: cgo, // cgo files are checked as written, C references unchecked
		Sizes:       u.pkg.TypesSizes,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errs = append(errs, checkError{te.Fset.Position(te.Pos), te.Msg})
			} else {
				errs = append(errs, checkError{msg: err.Error()})
			}
		},
	}
	if u.pkg.Module != nil && u.pkg.Module.GoVersion != "" {
		conf.GoVersion = "go" + u.pkg.Module.GoVersion
	}
	conf.Check(u.pkg.PkgPath, ins.fset, files, nil)
	return errs
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// importerFor resolves the imports of a unit's rewritten files: the
// unit's own imports, the runtime (a stub with its exported API) and sync.
func (ins *instrumenter) importerFor(u *unit) types.Importer {
	var fallback types.Importer
	var find func(path string) (*types.Package, error)
	var stub *types.Package
	find = func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		if path == ins.rtImport {
			if stub == nil {
				p, err := ins.runtimeStub(importerFunc(func(path string) (*types.Package, error) {
					if stubImports[path] {
						return find(path)
					}
					// The other packages rt's signatures name (context,
					// reflect, math/rand, runtime) matter only to rewrites
					// of code that imports them: take them from the loaded
					// graph, never from export data (a go list per unit).
					if ip := u.pkg.Imports[path]; ip != nil && ip.Types != nil {
						return ip.Types, nil
					}
					if tp := findImport(u.pkg.Types, path, make(map[*types.Package]bool)); tp != nil {
						return tp, nil
					}
					return nil, fmt.Errorf("%s: not imported by %s", path, u.pkg.PkgPath)
				}))
				if err != nil {
					return nil, err
				}
				stub = p
			}
			return stub, nil
		}
		return importLoaded(u.pkg, path, false, &fallback, ins.exports)
	}
	return importerFunc(find)
}

// importLoaded imports path for a check of p's files: p's own import as
// loaded, else a package p's imports refer to (only a complete one if
// complete: one known through export data holds only what its importers
// use of it), else from the build's export data (*fallback, made once,
// reading it through exports: one go list for the check's standard
// packages, not one per package).
func importLoaded(p *packages.Package, path string, complete bool, fallback *types.Importer, exports *stdExports) (*types.Package, error) {
	if ip := p.Imports[path]; ip != nil && ip.Types != nil {
		return ip.Types, nil
	}
	if tp := findImport(p.Types, path, make(map[*types.Package]bool)); tp != nil && (tp.Complete() || !complete) {
		return tp, nil
	}
	if *fallback == nil {
		*fallback = exports.importer(p.Fset)
	}
	return (*fallback).Import(path)
}

// findImport looks for path among the transitive imports of p.
func findImport(p *types.Package, path string, seen map[*types.Package]bool) *types.Package {
	if p == nil || seen[p] {
		return nil
	}
	seen[p] = true
	for _, q := range p.Imports() {
		if q.Path() == path {
			return q
		}
	}
	for _, q := range p.Imports() {
		if r := findImport(q, path, seen); r != nil {
			return r
		}
	}
	return nil
}

// runtimeStub type-checks the exported API of the embedded runtime (its
// functions' signatures, its types reduced to empty structs but Site) so
// that rewritten code can be type-checked without compiling the runtime.
func (ins *instrumenter) runtimeStub(imp types.Importer) (*types.Package, error) {
	src := ins.api.stub
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "rtstub.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("runtime stub: %w", err)
	}
	conf := types.Config{Importer: imp, Error: func(error) {}}
	pkg, _ := conf.Check(ins.rtImport, fset, []*ast.File{f}, nil)
	return pkg, nil
}

// stubImports are the packages the runtime stub always imports.
var stubImports = map[string]bool{"sync": true, "sync/atomic": true, "time": true, "unsafe": true}

// runtimeStubSource renders the exported API of the runtime's files. The
// packages its signatures name beyond stubImports (context.CancelFunc,
// reflect.Value, ...) are imported too: without them those types are
// invalid, and a rewrite assigning such a result to a typed variable
// (var cancel func(); ctx, cancel = context.WithDeadline(...)) does not
// type-check and is dropped.
func runtimeStubSource(files []*ast.File, fset *token.FileSet) string {
	var decls []string
	extra := make(map[string]string) // import name -> path
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil || !d.Name.IsExported() {
					continue
				}
				ast.Inspect(d.Type, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok {
							if path := importPath(f, id.Name); path != "" && !stubImports[path] {
								extra[id.Name] = path
							}
						}
					}
					return true
				})
				fd := *d
				fd.Body = nil
				fd.Doc = nil
				var s bytes.Buffer
				printer.Fprint(&s, fset, &fd)
				decls = append(decls, s.String())
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, sp := range d.Specs {
					ts := sp.(*ast.TypeSpec)
					if !ts.Name.IsExported() {
						continue
					}
					if ts.Name.Name == "Site" || ts.Name.Name == "SelCase" { // composite literals name their fields
						var s bytes.Buffer
						printer.Fprint(&s, fset, &ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{ts}})
						decls = append(decls, s.String())
						continue
					}
					decls = append(decls, "type "+ts.Name.Name+" struct{}")
				}
			}
		}
	}
	sort.Strings(decls)
	var b bytes.Buffer
	b.WriteString("package rt\n\nimport (\n\t\"sync\"\n\t\"sync/atomic\"\n\t\"time\"\n\t\"unsafe\"\n")
	for _, name := range sortedKeys(extra) {
		fmt.Fprintf(&b, "\t%s %q\n", name, extra[name])
	}
	b.WriteString(")\n\n")
	b.WriteString("var _ sync.Mutex\nvar _ atomic.Bool\nvar _ time.Duration\nvar _ unsafe.Pointer\n\n")
	b.WriteString(strings.Join(decls, "\n\n"))
	b.WriteString("\n")
	return b.String()
}

// importPath returns the path f imports under name, or "".
func importPath(f *ast.File, name string) string {
	for _, is := range f.Imports {
		path, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		n := pathpkg.Base(path)
		if is.Name != nil {
			n = is.Name.Name
		} else if strings.HasPrefix(n, "v") && strings.Contains(path, "/") {
			if _, err := strconv.Atoi(n[1:]); err == nil { // math/rand/v2
				n = pathpkg.Base(pathpkg.Dir(path))
			}
		}
		if n == name {
			return path
		}
	}
	return ""
}
