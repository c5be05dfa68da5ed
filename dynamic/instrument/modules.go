package instrument

import (
	"bytes"
	"context"
	"go/build/constraint"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// The rewritten code needs a newer language than some modules declare: its
// helpers are generic and it calls the runtime's generic functions (Go
// 1.18), and the runtime itself is written for Go 1.21. Raising the go
// line of the user's go.mod would change what the user's program means:
// the default GODEBUG settings follow the main module's go line, a go line
// from 1.17 prunes the module graph (so a go 1.16 module with dependencies
// would need new requirements: "updates to go.mod needed"), and from 1.22
// every loop iteration has its own variable. So the go line stays, and
// only the files pecanvet writes get a newer language, file by file: a
// //go:build line with a Go version sets the language version of its file
// to max(that version, go1.21) (go/types, cmd/compile). Go 1.21 is the
// last version whose loops share one variable across iterations, and no
// version from 1.13 to 1.21 changed the meaning of code that an older one
// compiles: a file of a go 1.13 to 1.20 module means the same at 1.21.
// Files of modules at go 1.21 or later are left alone (a go1.21 tag would
// downgrade a go 1.22 file and change its loops). The runtime module
// declares a go line no newer than the main module's — the go command
// refuses a dependency that needs a newer go than the main module — and
// its files get the same tag.

// langFloor is the language version of the rewritten files and the runtime.
const langFloor = "1.21"

// needsLangTag reports whether files of a module declaring go modGo (""
// when the go.mod has no go line: the go command assumes 1.16) need a
// file-level version to compile the rewritten code.
func needsLangTag(modGo string) bool {
	return modGo == "" || versionLess(modGo, langFloor)
}

// runtimeGoLine returns the go line of the runtime module for a main
// module declaring modGo: the main module's own version when it is older
// than langFloor (the runtime's files carry the go1.21 tag), else langFloor.
func runtimeGoLine(modGo string) string {
	if needsLangTag(modGo) {
		return modGo
	}
	return langFloor
}

// withLangTag returns src (a Go file named path) compiled at language
// version langFloor: a //go:build line requiring go1.21 and the file's own
// constraint is put first, followed by a blank line (a build constraint
// must be followed by one) and a line directive that puts the original
// text back at line 1 of path: a //line comment on a line of its own, so
// that a directive opening the file (fasthttp's "//go:generate") still
// starts its line; after a /*line*/ comment cmd/compile rejects it as a
// misplaced compiler directive. The file's own //go:build and // +build
// lines are made plain comments, so that it has one constraint; the
// combined constraint selects the file exactly when the original did,
// since every toolchain that runs pecanvet satisfies go1.21.
func withLangTag(path string, src []byte) []byte {
	var goBuild constraint.Expr
	var plusBuild []constraint.Expr
	lines := bytes.SplitAfter(src, []byte("\n"))
	inComment := false
	// endsHeader reports whether text after a closing */ is code.
	endsHeader := func(rest []byte) bool {
		rest = bytes.TrimSpace(rest)
		return len(rest) > 0 && !bytes.HasPrefix(rest, []byte("//"))
	}
Header:
	for i, l := range lines {
		t := bytes.TrimSpace(l)
		switch {
		case inComment:
			if k := bytes.Index(t, []byte("*/")); k >= 0 {
				inComment = false
				if endsHeader(t[k+2:]) {
					break Header
				}
			}
			continue
		case len(t) == 0:
			continue
		case bytes.HasPrefix(t, []byte("/*")):
			k := bytes.Index(t[2:], []byte("*/"))
			if k < 0 {
				inComment = true
			} else if endsHeader(t[2+k+2:]) {
				break Header
			}
			continue
		case !bytes.HasPrefix(t, []byte("//")):
			break Header // the package clause
		}
		text := string(t)
		switch {
		case constraint.IsGoBuild(text):
			x, err := constraint.Parse(text)
			if err != nil {
				return src // the go command reports it
			}
			if constraint.GoVersion(x) != "" {
				return src // the file sets its version: max(it, go1.21) applies
			}
			goBuild = x
		case constraint.IsPlusBuild(text):
			if x, err := constraint.Parse(text); err == nil {
				plusBuild = append(plusBuild, x)
			}
		default:
			continue
		}
		// "//go:build x" becomes "// pecanvet: go:build x", a plain comment.
		k := bytes.Index(l, []byte("//")) + 2
		lines[i] = append(append(append([]byte(nil), l[:k]...), " pecanvet:"...), l[k:]...)
	}
	own := goBuild
	if own == nil {
		for _, x := range plusBuild {
			if own == nil {
				own = x
			} else {
				own = &constraint.AndExpr{X: own, Y: x}
			}
		}
	}
	var tag constraint.Expr = &constraint.TagExpr{Tag: "go" + langFloor}
	if own != nil {
		tag = &constraint.AndExpr{X: own, Y: tag}
	}
	var b bytes.Buffer
	b.WriteString("//go:build " + tag.String() + "\n\n")
	b.WriteString("//line " + path + ":1:1\n")
	for _, l := range lines {
		b.Write(l)
	}
	return b.Bytes()
}

// runtimeGoMod is the go.mod of the runtime module.
func runtimeGoMod(module, mainGo string) string {
	s := "module " + module + "\n"
	if v := runtimeGoLine(mainGo); v != "" {
		s += "\ngo " + v + "\n"
	}
	return s
}

// vendorRuntimeImports returns the import paths of the runtime's packages
// rt and trace for a module built in vendor mode: packages of the main
// module, overlaid. rt has assembly, and the go command runs the assembler
// in the package's directory, which must exist on disk; the vendor
// directory does and holds no Go package, so rt is overlaid there, as
// package <module>/vendor. trace, pure Go, goes in a directory that only
// the overlay creates.
func vendorRuntimeImports(modPath, hash string) (rt, trace string) {
	return modPath + "/vendor", modPath + "/pecanvet_trace_" + hash
}

// vendorRuntimePath is where the runtime file k ("rt/x.go", "trace/y.go")
// appears, through the overlay, in vendor mode.
func vendorRuntimePath(mod *packages.Module, hash, k string) string {
	dir, base := path.Split(k)
	if dir == "rt/" {
		return filepath.Join(mod.Dir, "vendor", base)
	}
	return filepath.Join(mod.Dir, "pecanvet_trace_"+hash, base)
}

// goWork returns the go.work file the go command uses in dir, or "".
func goWork(ctx context.Context, dir string) string {
	cmd := exec.CommandContext(ctx, "go", "env", "GOWORK")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	if w := strings.TrimSpace(string(out)); w != "off" {
		return w
	}
	return ""
}
