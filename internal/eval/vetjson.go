package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/passes/pecan"
)

// diag is one diagnostic of `go vet -json`.
type diag struct {
	Package  string
	Category string `json:"category"`
	Posn     string `json:"posn"`
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
}

// parseVetJSON reads go vet -json's output: a sequence of JSON objects
// {package: {analyzer: [diagnostic...] or {"error": ...}}}. It returns the
// pecan analyzer's diagnostics and the per-package errors.
func parseVetJSON(out []byte) (diags []diag, errs []string, err error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			if err.Error() == "EOF" {
				break
			}
			return diags, errs, fmt.Errorf("go vet -json output: %v", err)
		}
		pkgs := make([]string, 0, len(tree))
		for p := range tree {
			pkgs = append(pkgs, p)
		}
		sort.Strings(pkgs)
		for _, p := range pkgs {
			raw, ok := tree[p]["pecan"]
			if !ok {
				continue
			}
			var ds []diag
			if json.Unmarshal(raw, &ds) == nil {
				for _, d := range ds {
					d.Package = p
					diags = append(diags, d)
				}
				continue
			}
			var e struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(raw, &e) == nil && e.Error != "" {
				errs = append(errs, p+": "+e.Error)
			}
		}
	}
	return diags, errs, nil
}

// readStats reads the -pecan.stats file: one pecan.Stats per line.
func readStats(path string) ([]pecan.Stats, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil // no package reached the analyzer
	}
	if err != nil {
		return nil, err
	}
	var out []pecan.Stats
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var s pecan.Stats
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return out, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// testFunc is a top-level Test function of a package.
type testFunc struct {
	Name       string
	File       string // absolute
	Start, End int    // lines
}

// testFuncs lists the Test functions the go command would run in dir's
// test files (func TestXxx(t *testing.T), Xxx not starting with a lower
// case letter; TestMain excluded).
func testFuncs(dir string) ([]testFunc, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	return testFuncsOf(names)
}

// testFuncsIn is testFuncs for the named files of dir (empty names
// skipped).
func testFuncsIn(dir string, files []string) ([]testFunc, error) {
	var names []string
	for _, f := range files {
		if f != "" {
			names = append(names, filepath.Join(dir, f))
		}
	}
	return testFuncsOf(names)
}

func testFuncsOf(names []string) ([]testFunc, error) {
	sort.Strings(names)
	fset := token.NewFileSet()
	var out []testFunc
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !isTestName(fd.Name.Name) || fd.Type.Params.NumFields() != 1 {
				continue
			}
			abs, _ := filepath.Abs(name)
			out = append(out, testFunc{fd.Name.Name, abs, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
		}
	}
	return out, nil
}

func isTestName(name string) bool {
	if name == "TestMain" || !strings.HasPrefix(name, "Test") {
		return false
	}
	rest := name[len("Test"):]
	return rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z')
}

// splitPosn splits "file:line:col" into the file and line (0 if posn is
// no position).
func splitPosn(posn string) (string, int) {
	site, err := trace.ParseSite(posn)
	if err != nil {
		return posn, 0
	}
	return site.Path, site.Line
}

// enclosingTest finds the Test function whose body holds posn.
func enclosingTest(funcs []testFunc, posn string) string {
	file, line := splitPosn(posn)
	for _, f := range funcs {
		if f.File == file && f.Start <= line && line <= f.End {
			return f.Name
		}
	}
	return ""
}

// testOf attributes a diagnostic to a test: the Test function holding its
// position, or else the first step of its clip that lies in one (an
// anomaly reported in a helper function that a test calls).
func testOf(funcs []testFunc, d diag) string {
	if t := enclosingTest(funcs, d.Posn); t != "" {
		return t
	}
	for _, r := range d.Related {
		if t := enclosingTest(funcs, r.Posn); t != "" {
			return t
		}
	}
	return ""
}

// pecanNotes returns the notes pecanvet printed on standard error
// ("pecanvet: pkg: ..."), each once.
func pecanNotes(stderr []byte) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(stderr), "\n") {
		if strings.HasPrefix(l, "pecanvet: ") && !seen[l] {
			seen[l] = true
			out = append(out, strings.TrimPrefix(l, "pecanvet: "))
		}
	}
	return out
}
