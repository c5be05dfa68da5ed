package load

import (
	"bufio"
	"context"
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/tools/go/packages"
)

// Listing the imports' export data beside the packages' listing.
//
// loadSource runs two go lists one after the other: the packages'
// listing, then the export data of what they import, named from the
// listing. On a package that imports only the standard library (pubsub,
// pond) the second list is about 0.3 s of CPU, and of wall on the check's
// path, before the instrumented build can start. Its patterns can be
// known before the listing: go/build reads the files' imports (build
// constraints applied) and the test main's are fixed. listAhead starts
// that list beside the listing; loadSource takes its answer only when it
// holds every import the listing names, and lists them as before
// otherwise, so a wrong guess costs CPU, never a wrong type: the export
// data of a package is the same whichever list the go command answered.
// It guesses only where a miss is unlikely: one directory, no cgo, every
// import a standard-library package (or the package itself, in its
// external tests). A package importing its module's other packages
// (conc, ttlcache) needs their imports too (the plan), which only the
// listing knows: it lists after the listing, as before.

// testMainImports are the imports of the test main the go command
// generates (cmd/go/internal/load's testmainTmpl, without coverage).
var testMainImports = []string{"os", "reflect", "testing", "testing/internal/testdeps"}

// exportListsAfter counts the export-data lists run after the listing,
// for tests.
var exportListsAfter atomic.Int64

// ahead is an export-data list started before the listing.
type ahead struct {
	cancel context.CancelFunc
	done   chan struct{}
	list   []*packages.Package
	err    error
}

// listAhead starts the export-data list of the imports guessImports
// guesses for patterns, with the configuration loadSource's own list would
// have; nil when there is no guess.
func listAhead(cfg *packages.Config, patterns []string) *ahead {
	guess := guessImports(cfg.Dir, patterns, cfg.BuildFlags, cfg.Env)
	if len(guess) == 0 {
		return nil
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	a := &ahead{cancel: cancel, done: make(chan struct{})}
	d := exportConfig(cfg)
	d.Context = ctx
	go func() {
		defer close(a.done)
		a.list, a.err = packages.Load(d, guess...)
	}()
	return a
}

// exportConfig is the configuration of the imports' export-data list.
func exportConfig(cfg *packages.Config) *packages.Config {
	d := *cfg
	d.Mode = packages.NeedName | packages.NeedTypes
	d.Tests = false
	return &d
}

// stop ends the list if it still runs, and waits for it.
func (a *ahead) stop() {
	if a == nil {
		return
	}
	a.cancel()
	<-a.done
}

// covering waits for the list and returns its packages if they include
// every one of ids, each listed without error.
func (a *ahead) covering(ids []string) ([]*packages.Package, bool) {
	if a == nil {
		return nil, false
	}
	<-a.done
	if a.err != nil {
		return nil, false
	}
	byID := map[string]*packages.Package{}
	for _, p := range a.list {
		byID[p.ID] = p
	}
	for _, id := range ids {
		p := byID[id]
		if p == nil || len(p.Errors) > 0 || p.Types == nil || !p.Types.Complete() {
			return nil, false
		}
	}
	return a.list, true
}

// guessImports returns, sorted, what the package in the one directory
// patterns names imports, its tests included, and what its test main
// imports: the patterns of loadSource's export-data list. It returns nil
// (no guess) for other patterns, a package go/build cannot read, cgo, or
// an import outside the standard library other than the package itself.
func guessImports(dir string, patterns, buildFlags, env []string) []string {
	if len(patterns) != 1 || !build.IsLocalImport(patterns[0]) && !filepath.IsAbs(patterns[0]) || strings.Contains(patterns[0], "...") {
		return nil
	}
	pdir := patterns[0]
	if !filepath.IsAbs(pdir) {
		pdir = filepath.Join(dir, pdir)
	}
	ctxt := build.Default
	goflags := os.Getenv("GOFLAGS")
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			goflags = v
		}
	}
	tags, ok := buildTags(append(strings.Fields(goflags), buildFlags...))
	if !ok {
		return nil
	}
	ctxt.BuildTags = tags
	bp, err := ctxt.ImportDir(pdir, 0)
	if err != nil || len(bp.CgoFiles) > 0 {
		return nil
	}
	self := ownPath(pdir)
	seen := map[string]bool{}
	var out []string
	for _, imps := range [][]string{bp.Imports, bp.TestImports, bp.XTestImports, testMainImports} {
		for _, imp := range imps {
			switch {
			case seen[imp] || imp == "unsafe" || imp == self && self != "":
				continue
			case imp == "C" || !isStdPath(ctxt.GOROOT, imp):
				return nil
			}
			seen[imp] = true
			out = append(out, imp)
		}
	}
	slices.Sort(out)
	return out
}

// buildTags returns the tags that -tags among the go command's flags sets
// (the last one wins, as the flag package has it); ok is false for a
// flag that changes which files a package has in a way go/build does not
// follow here.
func buildTags(flags []string) (tags []string, ok bool) {
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		if !strings.HasPrefix(f, "-") {
			continue
		}
		name, value, has := strings.Cut(strings.TrimLeft(f, "-"), "=")
		switch name {
		case "tags":
			if !has {
				if i+1 >= len(flags) {
					return nil, false
				}
				i++
				value = flags[i]
			}
			tags = strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })
		case "overlay":
			// It may change the package's files.
			return nil, false
		}
	}
	return tags, true
}

// isStdPath reports whether path names a standard-library package: a
// first element without a dot, and a directory under GOROOT/src.
func isStdPath(goroot, path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") || goroot == "" {
		return false
	}
	fi, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(path)))
	return err == nil && fi.IsDir()
}

// ownPath returns the import path of the package in dir, from the module
// path of the nearest go.mod above it; "" if there is none.
func ownPath(dir string) string {
	for d := dir; ; {
		if mod := modulePath(filepath.Join(d, "go.mod")); mod != "" {
			rel, err := filepath.Rel(d, dir)
			if err != nil {
				return ""
			}
			if rel == "." {
				return mod
			}
			return mod + "/" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// modulePath returns the module path a go.mod file declares, or "".
func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || rest == "" || rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"' {
			continue
		}
		rest, _, _ = strings.Cut(rest, "//")
		rest = strings.TrimSpace(rest)
		if s, err := strconv.Unquote(rest); err == nil {
			return s
		}
		return rest
	}
	return ""
}
