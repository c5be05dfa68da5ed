package instrument

import (
	"go/ast"
	"go/types"
	"go/version"
	"strconv"
)

// Language-version and type-spelling helpers for rewrites whose meaning
// depends on the file's Go version (loop variables, range over functions).

// goVersion is the language version of the file being rewritten ("go1.21"),
// from the type checker (which honours a //go:build line that sets the
// file's version) or the module's go directive; "" if unknown.
func (w *fileRW) goVersion() string {
	if v := w.info.FileVersions[w.file]; v != "" {
		return version.Lang(v)
	}
	if w.u != nil && w.u.pkg.Module != nil && w.u.pkg.Module.GoVersion != "" {
		return version.Lang("go" + w.u.pkg.Module.GoVersion)
	}
	return ""
}

// atLeast reports whether the file's language version is at least v
// ("go1.22"). An unknown version counts as the newest.
func (w *fileRW) atLeast(v string) bool {
	gv := w.goVersion()
	return gv == "" || version.Compare(gv, v) >= 0
}

// typeText spells t as the file can write it: the package's own types
// unqualified, other packages' by the name the file imports them under. It
// fails for a type of a package the file does not import.
func (w *fileRW) typeText(t types.Type) (string, bool) {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == w.pkg {
			return ""
		}
		for _, imp := range w.file.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil || path != p.Path() {
				continue
			}
			if imp.Name == nil {
				return p.Name()
			}
			switch imp.Name.Name {
			case ".":
				return ""
			case "_":
				continue
			}
			return imp.Name.Name
		}
		ok = false
		return p.Name()
	})
	return s, ok
}

// mentions reports whether an identifier named name occurs in e.
func mentions(e ast.Node, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}
