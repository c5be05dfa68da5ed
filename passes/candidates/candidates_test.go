package candidates_test

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/passes/candidates"
	"github.com/pecanvet/pecanvet/passes/candidates/candidatestest"
	"github.com/pecanvet/pecanvet/passes/symbolic"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// buggy have // want lines; fixed must produce no candidate at all.
var (
	buggy = []string{"counter", "checkact", "invariant", "wgorder", "server", "uselib", "generic", "loops", "spawnhelper", "closejoinearly", "mixedflag"}
	fixed = []string{"counterfixed", "checkactfixed", "invariantfixed", "safemethods", "chanorder", "serverfixed", "nosync", "closejoin", "mixedflagfixed"}
)

func TestCandidates(t *testing.T) {
	res := analysistest.Run(t, analysistest.TestData(), candidatestest.Analyzer, append(buggy, fixed...)...)
	byPkg := map[string]candidates.Result{}
	for _, r := range res {
		byPkg[r.Pass.Pkg.Path()] = *r.Result.(*candidates.Result)
	}
	for _, name := range fixed {
		if c := byPkg[name]; len(c) != 0 {
			t.Errorf("fixed twin %s has %d candidates, want none", name, len(c))
		}
	}
	for _, name := range buggy {
		if len(byPkg[name]) == 0 {
			t.Errorf("buggy %s has no candidates", name)
		}
	}

	// The contexts of a few candidates.
	kinds := func(pkg string, i int) string {
		c := byPkg[pkg][i]
		return c.Funcs[0].Kind.String() + " / " + c.Funcs[1].Kind.String()
	}
	for _, c := range []struct {
		pkg  string
		i    int
		want string
	}{
		{"wgorder", 0, "after go / goroutine body"},
		{"server", 0, "method / goroutine body"},
		{"invariant", 0, "method / method"},
		{"counter", 1, "goroutine body / goroutine body"},
	} {
		if got := kinds(c.pkg, c.i); got != c.want {
			t.Errorf("%s candidate %d: contexts %s, want %s", c.pkg, c.i, got, c.want)
		}
	}
	w := byPkg["wgorder"][0]
	if w.Events[0].Loc != "wgorder.Compute.result" || !strings.Contains(w.Why, "wgorder.Compute$1") || w.Key == "" || w.P == nil {
		t.Errorf("wgorder candidate: loc %q, why %q, key %q", w.Events[0].Loc, w.Why, w.Key)
	}
}

// probe exposes both results without reporting anything.
type both struct {
	sym   *symbolic.Result
	cands candidates.Result
}

var probe = &analysis.Analyzer{
	Name:       "candidatesprobe",
	Doc:        "test: expose the symbolic and candidates results",
	Requires:   []*analysis.Analyzer{symbolic.Analyzer, candidates.Analyzer},
	ResultType: reflect.TypeFor[*both](),
	Run: func(pass *analysis.Pass) (any, error) {
		return &both{
			sym:   pass.ResultOf[symbolic.Analyzer].(*symbolic.Result),
			cands: *pass.ResultOf[candidates.Analyzer].(*candidates.Result),
		}, nil
	},
}

func TestFastPath(t *testing.T) {
	res := analysistest.Run(quiet{t}, analysistest.TestData(), probe, "nosync", "lib", "counter")
	for _, r := range res {
		b := r.Result.(*both)
		want := r.Pass.Pkg.Path() == "counter"
		if b.sym.HasConcurrency != want {
			t.Errorf("%s: HasConcurrency = %v, want %v", r.Pass.Pkg.Path(), b.sym.HasConcurrency, want)
		}
		if !want && len(b.cands) != 0 {
			t.Errorf("%s: %d candidates on the fast path", r.Pass.Pkg.Path(), len(b.cands))
		}
	}
}

func setPatterns(t *testing.T, spec string) {
	t.Helper()
	if err := candidates.Analyzer.Flags.Set("patterns", spec); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { candidates.Analyzer.Flags.Set("patterns", "") })
}

func TestPatternsFlag(t *testing.T) {
	count := func(t *testing.T, pkg string) map[string]int {
		res := analysistest.Run(quiet{t}, analysistest.TestData(), probe, pkg)
		n := map[string]int{}
		for _, c := range res[0].Result.(*both).cands {
			n[c.Kind+"/"+c.Pattern]++
		}
		return n
	}
	t.Run("race", func(t *testing.T) {
		setPatterns(t, "race")
		if got, want := fmt.Sprint(count(t, "counter")), "map[race/RW:2 race/WW:1]"; got != want {
			t.Errorf("counter with -patterns race: %s, want %s", got, want)
		}
	})
	t.Run("inline", func(t *testing.T) {
		setPatterns(t, "mine/RWW atomic T=a-b-a SV=x-x-x AR=u-v-u AT=r-w-w")
		if got, want := fmt.Sprint(count(t, "counter")), "map[mine/RWW:1]"; got != want {
			t.Errorf("counter with an inline pattern: %s, want %s", got, want)
		}
	})
	t.Run("acting", func(t *testing.T) {
		// The same shape without the option matches; with it, only a
		// trace can say which reads act, so the analyzer leaves it out.
		setPatterns(t, "mine/RRW atomic T=a-b-a SV=x-x-x AR=u-v-u AT=r-r-w")
		if got := fmt.Sprint(count(t, "counter")); got == "map[]" {
			t.Fatalf("counter with RRW: no candidates; the case below proves nothing")
		}
		setPatterns(t, "mine/RRW atomic acting T=a-b-a SV=x-x-x AR=u-v-u AT=r-r-w")
		if got := fmt.Sprint(count(t, "counter")); got != "map[]" {
			t.Errorf("counter with an acting pattern: %s, want none", got)
		}
	})
	t.Run("bad", func(t *testing.T) {
		setPatterns(t, "nosuchset")
		var rec recorder
		analysistest.Run(&rec, analysistest.TestData(), candidates.Analyzer, "counter")
		if !strings.Contains(rec.String(), "nosuchset") {
			t.Errorf("bad -patterns: errors %q, want one naming nosuchset", rec.String())
		}
	})
}

// quiet is a testing.T for runs of analyzers that report nothing: it drops
// analysistest's complaints about the // want lines they do not match.
type quiet struct{ t *testing.T }

func (q quiet) Errorf(format string, args ...any) {
	if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "no diagnostic was reported matching") {
		q.t.Helper()
		q.t.Error(msg)
	}
}

type recorder struct{ strings.Builder }

func (r *recorder) Errorf(format string, args ...any) { fmt.Fprintf(r, format+"\n", args...) }

// TestStdlib runs the analyzers over strings and sync (and, for facts,
// all their dependencies) from source.
func TestStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the standard library from source")
	}
	start := time.Now()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: false}
	patterns := []string{"strings", "sync"}
	if env := os.Getenv("PECANVET_STDPKGS"); env != "" {
		patterns = strings.Split(env, ",") // e.g. net/http,runtime for profiling
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d load errors", n)
	}
	loaded := time.Now()
	cpu0, cpuOK := cpuTime()
	g, err := checker.Analyze([]*analysis.Analyzer{candidates.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := time.Now()
	cpu1, _ := cpuTime()
	deps := 0
	for act := range g.All() {
		if act.Analyzer == symbolic.Analyzer {
			deps++
		}
	}
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
			continue
		}
		cands := *act.Result.(*candidates.Result)
		t.Logf("%s: %d candidates", act.Package.PkgPath, len(cands))
		if os.Getenv("DUMP") != "" {
			for _, c := range cands {
				t.Logf("%s/%s %s", c.Kind, c.Pattern, c.Why)
			}
		}
	}
	t.Logf("load %v, analysis of %d packages %v (CPU %v)", loaded.Sub(start).Round(time.Millisecond), deps,
		done.Sub(loaded).Round(time.Millisecond), (cpu1 - cpu0).Round(time.Millisecond))
	// The bound is on the analysis's work, its CPU time (about 1 s): in
	// wall time (20 s, for 1-3 s on an idle machine) a full go test run
	// on a loaded 2-core machine (load 60-70) went past it. The CPU time
	// is the process's: it includes the GC's, part of the analysis's cost.
	if d := cpu1 - cpu0; cpuOK && d > 10*time.Second {
		t.Errorf("analysis took %v of CPU, want < 10s", d)
	} else if d := done.Sub(loaded); !cpuOK && d > 20*time.Second {
		t.Errorf("analysis took %v, want < 20s", d)
	}
}

// BenchmarkStdlib measures the analysis (not the loading) of strings and
// sync with their dependencies.
func BenchmarkStdlib(b *testing.B) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "strings", "sync")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		b.Fatal("load failed", err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := checker.Analyze([]*analysis.Analyzer{candidates.Analyzer}, pkgs, nil); err != nil {
			b.Fatal(err)
		}
	}
}
