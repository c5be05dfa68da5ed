package reach

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// load returns the package in dir with its tests: the variant with its
// internal tests (or the package) and its external tests.
func load(t *testing.T, dir string) (*Graph, []*packages.Package) {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode, Dir: dir, Tests: true}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var plain, test, xtest *packages.Package
	for _, p := range pkgs {
		switch {
		case strings.HasSuffix(p.PkgPath, "_test"):
			xtest = p
		case strings.HasSuffix(p.ID, ".test"):
		case p.ID == p.PkgPath:
			plain = p
		default:
			test = p
		}
	}
	if test == nil {
		test = plain
	}
	g, err := Build([]*packages.Package{test, xtest})
	if err != nil {
		t.Fatal(err)
	}
	return g, []*packages.Package{test, xtest}
}

// funcs names the functions of pkgs by Key: "Name", "Recv.Name", or
// "lit:line" for a function literal.
type funcSpan struct {
	key, name  string
	start, end token.Position
}

func funcs(pkgs []*packages.Package) []funcSpan {
	var out []funcSpan
	seen := map[string]bool{}
	for _, p := range pkgs {
		if p == nil {
			continue
		}
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				var s funcSpan
				switch n := n.(type) {
				case *ast.FuncDecl:
					s.name = n.Name.Name
					if n.Recv != nil && len(n.Recv.List) == 1 {
						s.name = recvName(n.Recv.List[0].Type) + "." + s.name
					}
					// An ssa.Function's position is its name's.
					s.key = Key(p.Fset, n.Name.Pos())
				case *ast.FuncLit:
					s.key = Key(p.Fset, n.Type.Func)
					s.name = "lit:" + strconv.Itoa(p.Fset.Position(n.Pos()).Line)
				default:
					return true
				}
				s.start, s.end = p.Fset.Position(n.Pos()), p.Fset.Position(n.End())
				if !seen[s.key] {
					seen[s.key] = true
					out = append(out, s)
				}
				return true
			})
		}
	}
	return out
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + recvName(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return recvName(e.X)
	}
	return "?"
}

func reachedNames(g *Graph, pkgs []*packages.Package, test string) map[string]bool {
	r := g.Reached(test)
	out := map[string]bool{}
	for _, f := range funcs(pkgs) {
		if r[f.key] {
			out[f.name] = true
		}
	}
	return out
}

// TestReached: each way of reaching code is followed, and what a test
// does not call is not reached.
func TestReached(t *testing.T) {
	g, pkgs := load(t, "testdata/reachmod/a")
	for _, c := range []struct {
		test      string
		want, not []string
	}{
		{"TestStatic", []string{"TestStatic", "NewCounter", "*Counter.Inc", "init", "setup"}, []string{"*Counter.Get", "Lone", "X.Do"}},
		{"TestSubtest", []string{"lit:8", "*Counter.Get"}, []string{"*Counter.Inc"}},
		{"TestInvoke", []string{"Run", "X.Do", "*Y.Do"}, []string{"*Counter.Inc"}},
		{"TestPointerInvoke", []string{"Run", "*Y.Do"}, nil},
		{"TestSort", []string{"SortByLen", "byLen.Less", "byLen.Swap", "byLen.Len"}, []string{"X.Do"}},
		{"TestGeneric", []string{"Doubles", "Map", "double"}, nil},
		{"TestSpawn", []string{"Spawn", "lit:68", "*Counter.Inc"}, []string{"*Counter.Get"}},
		{"TestMethodValue", []string{"Apply", "*Counter.Inc"}, []string{"*Counter.Get"}},
		{"TestNothing", []string{"init", "setup"}, []string{"NewCounter", "Lone"}},
		{"TestExternal", []string{"TestExternal", "NewCounter", "*Counter.Inc", "*Counter.Get"}, []string{"Lone"}},
	} {
		got := reachedNames(g, pkgs, c.test)
		for _, w := range c.want {
			if !got[w] {
				t.Errorf("%s does not reach %s; reaches %v", c.test, w, sorted(got))
			}
		}
		for _, w := range c.not {
			if got[w] {
				t.Errorf("%s reaches %s", c.test, w)
			}
		}
	}
	if g.Reached("TestMissing") != nil {
		t.Errorf("an unknown test reaches something")
	}
	if n := len(g.Tests()); n != 10 {
		t.Errorf("%d tests, want 10: %v", n, g.Tests())
	}
}

func sorted(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestSoundAgainstCoverage: every function a test runs, as its coverage
// profile shows, is one the graph says it reaches — on this package and
// on copies of some of the corpus's subjects (testdata/subjects), or on
// every subject of the corpus with PECANVET_REACH=all.
func TestSoundAgainstCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs tests")
	}
	dirs := []string{"testdata/reachmod/a"}
	subjects := []string{"ledger", "account", "cache4j", "treeset", "pool", "poolsum", "bufwriter", "linkedlist"}
	root := "testdata/subjects"
	if os.Getenv("PECANVET_REACH") == "all" {
		root = "../../testdata/src"
		ents, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		subjects = nil
		for _, e := range ents {
			if e.IsDir() {
				subjects = append(subjects, e.Name())
			}
		}
	}
	for _, s := range subjects {
		dirs = append(dirs, filepath.Join(root, s))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			checkSound(t, dir)
		})
	}
}

func checkSound(t *testing.T, dir string) {
	g, pkgs := load(t, dir)
	spans := funcs(pkgs)
	bin := filepath.Join(t.TempDir(), "p.test")
	cmd := exec.Command("go", "test", "-c", "-cover", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("no test binary (no tests)")
	}
	checked := 0
	for _, test := range g.Tests() {
		if !strings.HasPrefix(test, "Test") {
			continue
		}
		prof := filepath.Join(t.TempDir(), test+".cov")
		run := exec.Command(bin, "-test.run=^"+test+"$", "-test.coverprofile="+prof, "-test.timeout=60s")
		run.Dir = dir
		run.Run() // a failing test covers what it ran all the same
		blocks, err := covered(prof)
		if err != nil {
			t.Logf("%s: no profile: %v", test, err)
			continue
		}
		reached := g.Reached(test)
		for _, b := range blocks {
			f := innermost(spans, b)
			if f == nil {
				continue
			}
			if !reached[f.key] {
				t.Errorf("%s ran %s (%s:%d) but the graph does not reach it", test, f.name, b.file, b.line)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Errorf("no test checked")
	}
}

type block struct {
	file      string // base name
	line, col int
}

// covered reads a coverage profile's blocks that ran.
func covered(path string) ([]block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []block
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") {
			continue
		}
		// file.go:L.C,L.C stmts count
		fields := strings.Fields(line)
		if len(fields) != 3 || fields[2] == "0" {
			continue
		}
		colon := strings.LastIndexByte(fields[0], ':')
		if colon < 0 {
			return nil, fmt.Errorf("bad line %q", line)
		}
		var l, c int
		if _, err := fmt.Sscanf(fields[0][colon+1:], "%d.%d", &l, &c); err != nil {
			return nil, fmt.Errorf("bad line %q", line)
		}
		out = append(out, block{file: filepath.Base(fields[0][:colon]), line: l, col: c})
	}
	return out, sc.Err()
}

// innermost is the function whose syntax holds the block's start.
func innermost(spans []funcSpan, b block) *funcSpan {
	var best *funcSpan
	for i := range spans {
		s := &spans[i]
		if filepath.Base(s.start.Filename) != b.file || !before(s.start, b.line, b.col) || before(s.end, b.line, b.col) {
			continue
		}
		if best == nil || s.start.Offset > best.start.Offset {
			best = s
		}
	}
	return best
}

// before reports whether p is at or before line:col.
func before(p token.Position, line, col int) bool {
	return p.Line < line || p.Line == line && p.Column <= col
}
