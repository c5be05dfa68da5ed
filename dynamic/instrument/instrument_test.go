package instrument

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

var update = flag.Bool("update", false, "rewrite the golden traces")

// The corpus (testdata/tricky) is instrumented once and built twice, plain
// and instrumented, into test binaries that the tests below run: building
// is what costs, so every test shares these builds.
var corpus struct {
	once     sync.Once
	err      error
	dir      string   // the corpus module
	hash     string   // hash of the corpus tree before anything ran
	res      *Result  // the instrumentation
	plain    string   // directory of the plain test binaries
	inst     string   // directory of the instrumented test binaries
	pkgDirs  []string // package directories, by binary name
	bins     map[string]string
	tmp      string
	buildLog string
}

func setupCorpus(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	corpus.once.Do(func() {
		corpus.err = buildCorpus()
	})
	if corpus.err != nil {
		t.Fatal(corpus.err)
	}
}

func buildCorpus() error {
	dir, err := filepath.Abs(filepath.Join("testdata", "tricky"))
	if err != nil {
		return err
	}
	corpus.dir = dir
	if corpus.hash, err = hashTree(dir); err != nil {
		return err
	}
	corpus.tmp, err = os.MkdirTemp("", "pecanvet-instrument-test-")
	if err != nil {
		return err
	}
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		return err
	}
	corpus.res = res
	corpus.plain = filepath.Join(corpus.tmp, "plain")
	corpus.inst = filepath.Join(corpus.tmp, "inst")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, args := range [][]string{
		{"test", "-c", "-vet=off", "-o", corpus.plain + string(filepath.Separator), "./..."},
		{"test", "-c", "-vet=off", "-overlay=" + res.Overlay, "-o", corpus.inst + string(filepath.Separator), "./..."},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("go", args...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[i] = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	corpus.bins = make(map[string]string)
	for _, p := range res.Packages {
		if p.Tests {
			corpus.bins[filepath.Base(p.Dir)] = p.Dir
		}
	}
	return nil
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if corpus.res != nil {
		corpus.res.Cleanup()
	}
	if corpus.tmp != "" {
		os.RemoveAll(corpus.tmp)
	}
	os.Exit(code)
}

// hashTree hashes the names and contents of the files under dir.
func hashTree(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s %v\n", rel, d.Type())
		if d.Type().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%d\n", len(b))
			h.Write(b)
		}
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil)), err
}

// run runs test binary name (plain or instrumented) in its package's
// directory, with the environment env added, under test2json: it returns
// the test's output text and each test's result (pass, fail, skip).
func run(t *testing.T, bindir, name string, env []string, args ...string) (string, map[string]string, error) {
	t.Helper()
	bin := filepath.Join(bindir, name+".test")
	cmd := exec.Command("go", append([]string{"tool", "test2json", "-p", name, bin, "-test.v=test2json", "-test.count=1"}, args...)...)
	cmd.Dir = corpus.bins[name]
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	var text strings.Builder
	results := make(map[string]string)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var ev struct {
			Action, Test, Output string
		}
		if derr := dec.Decode(&ev); derr != nil {
			if derr != io.EOF {
				t.Fatalf("%s: test2json output: %v", name, derr)
			}
			break
		}
		switch ev.Action {
		case "output":
			text.WriteString(ev.Output)
		case "pass", "fail", "skip":
			if ev.Test != "" {
				results[ev.Test] = ev.Action
			}
		}
	}
	return text.String(), results, err
}

// locations lists the file:line locations the output mentions (test
// failure lines and stack frames), in order.
var locRE = regexp.MustCompile(`[\w./-]+\.go:\d+`)

func locations(out string) []string {
	var locs []string
	for _, l := range locRE.FindAllString(out, -1) {
		if strings.Contains(l, "/go/src/") || strings.HasPrefix(l, "testing.go") {
			continue // the standard library: not the user's code
		}
		locs = append(locs, l)
	}
	return locs
}

// TestCorpusSameResults runs every test of the corpus plain and
// instrumented (recording a trace) and checks that each test passes, fails
// or skips alike, and that failure messages point at the same lines.
func TestCorpusSameResults(t *testing.T) {
	setupCorpus(t)
	names := make([]string, 0, len(corpus.bins))
	for n := range corpus.bins {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) < 8 {
		t.Fatalf("only %d test binaries: %v", len(names), names)
	}
	fails := 0
	for _, name := range names {
		env := []string{"PECANVET_CORPUS_FAIL=1"}
		pout, pr, perr := run(t, corpus.plain, name, env)
		traceFile := filepath.Join(corpus.tmp, name+".trace")
		iout, ir, ierr := run(t, corpus.inst, name, append(env, "PECANVET_TRACE="+traceFile))
		if len(pr) == 0 {
			t.Errorf("%s: no test results:\n%s", name, pout)
		}
		if fmt.Sprint(pr) != fmt.Sprint(ir) {
			t.Errorf("%s: results differ\nplain:        %v\ninstrumented: %v\n%s", name, pr, ir, iout)
		}
		if (perr == nil) != (ierr == nil) {
			t.Errorf("%s: exit status differs: plain %v, instrumented %v", name, perr, ierr)
		}
		if pl, il := locations(pout), locations(iout); fmt.Sprint(pl) != fmt.Sprint(il) {
			t.Errorf("%s: locations differ\nplain:        %v\ninstrumented: %v", name, pl, il)
		}
		for _, r := range pr {
			if r == "fail" {
				fails++
			}
		}
		tr, err := trace.ReadFile(traceFile, trace.ReadOptions{Lenient: true})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(tr.Events) == 0 {
			t.Errorf("%s: empty trace", name)
		}
		if tr.Truncated != "" {
			t.Errorf("%s: trace truncated: %s", name, tr.Truncated)
		}
	}
	if fails < 2 {
		t.Errorf("%d failing tests; the corpus has failures on purpose", fails)
	}
}

// TestCorpusPanics checks that a panic in instrumented code reports the
// same message and the same file:line frames as in the original, also
// where the instrumenter moved code (a multi-line assignment, a tuple
// assignment).
func TestCorpusPanics(t *testing.T) {
	setupCorpus(t)
	for _, which := range []string{"store", "index"} {
		env := []string{"PECANVET_CORPUS_PANIC=" + which}
		pout, _, perr := run(t, corpus.plain, "panicky", env, "-test.run=TestPanics")
		iout, _, ierr := run(t, corpus.inst, "panicky", append(env, "PECANVET_TRACE="+filepath.Join(corpus.tmp, "panic.trace")), "-test.run=TestPanics")
		if perr == nil || ierr == nil {
			t.Fatalf("%s: no panic: %v %v", which, perr, ierr)
		}
		msg := func(s string) string {
			for _, l := range strings.Split(s, "\n") {
				if strings.HasPrefix(l, "panic: ") {
					return l
				}
			}
			return ""
		}
		if pm, im := msg(pout), msg(iout); pm == "" || pm != im {
			t.Errorf("%s: panic messages differ:\nplain:        %s\ninstrumented: %s", which, pm, im)
		}
		pl, il := locations(pout), locations(iout)
		if len(pl) == 0 || fmt.Sprint(pl) != fmt.Sprint(il) {
			t.Errorf("%s: panic locations differ\nplain:        %v\ninstrumented: %v\n%s", which, pl, il, iout)
		}
		tr, err := trace.ReadFile(filepath.Join(corpus.tmp, "panic.trace"), trace.ReadOptions{Lenient: true})
		if err != nil {
			t.Errorf("%s: reading the trace of a panicked run: %v", which, err)
		} else if len(tr.Events) == 0 || tr.Truncated == "" {
			t.Errorf("%s: trace of a panicked run: %d events, truncated %q", which, len(tr.Events), tr.Truncated)
		}
	}
}

// TestCorpusUntouched checks that instrumenting, building and running left
// the corpus byte-identical, and that Cleanup removes the temp dir.
func TestCorpusUntouched(t *testing.T) {
	setupCorpus(t)
	// Run after the other corpus tests when run in order; they may run
	// alone, which checks less but still checks.
	h, err := hashTree(corpus.dir)
	if err != nil {
		t.Fatal(err)
	}
	if h != corpus.hash {
		t.Error("the corpus changed")
	}
	// Instrumenting again gives the same sites (ids are stable).
	res, err := Instrument(context.Background(), Options{Dir: corpus.dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Sites) != fmt.Sprint(corpus.res.Sites) {
		t.Error("a second instrumentation gave other sites")
	}
	if _, err := os.Stat(res.Overlay); err != nil {
		t.Fatal(err)
	}
	if err := res.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(res.Dir); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Cleanup", res.Dir)
	}
	if h2, _ := hashTree(corpus.dir); h2 != corpus.hash {
		t.Error("the corpus changed")
	}
}

// TestCorpusResult checks what Instrument reports about the corpus.
func TestCorpusResult(t *testing.T) {
	setupCorpus(t)
	res := corpus.res
	if len(res.Notes) != 0 {
		t.Errorf("notes: %q", res.Notes)
	}
	pkgs := make(map[string]Package)
	for _, p := range res.Packages {
		pkgs[p.ImportPath] = p
	}
	for path, files := range map[string][]string{
		"example.com/tricky/counter": {"counter.go", "counter_test.go"},
		"example.com/tricky/xtest":   {"queue.go", "queue_test.go", "zz_generated.go"},
		"example.com/tricky/syntax":  {"syntax.go", "syntax_test.go"},
	} {
		p, ok := pkgs[path]
		if !ok {
			t.Errorf("%s not instrumented: %+v", path, res.Packages)
			continue
		}
		var base []string
		for _, f := range p.Files {
			base = append(base, filepath.Base(f))
		}
		sort.Strings(base)
		if !p.Tests || fmt.Sprint(base) != fmt.Sprint(files) {
			t.Errorf("%s: tests %v, files %v, want %v", path, p.Tests, base, files)
		}
	}
	// The generated file is instrumented; every package with tests got a
	// TestMain but exitmain, which has its own.
	ov, err := os.ReadFile(res.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"zz_generated.go", filepath.Join("counter", "zz_pecanvet_main_test.go"), "go.mod"} {
		if !strings.Contains(string(ov), want) {
			t.Errorf("overlay lacks %s", want)
		}
	}
	if strings.Contains(string(ov), filepath.Join("exitmain", "zz_pecanvet_main_test.go")) {
		t.Error("a TestMain was added next to the package's own")
	}
}

// projection renders the events of a trace goroutine by goroutine (each
// goroutine's events are in program order whatever the interleaving).
// wgModel reports whether event i of a goroutine's events (text lines
// without the goroutine) is the race detector's model access of a
// WaitGroup: a read or write at the site of the WaitGroup operation beside
// it. Whether a Wait writes depends on whether it blocked, that is on
// timing, so the goldens leave the model out (rt's tests check it).
func wgModel(evs []string, i int) bool {
	op, rest, _ := strings.Cut(evs[i], " ")
	if op != "read" && op != "write" {
		return false
	}
	site := rest[strings.LastIndexByte(rest, ' ')+1:]
	for _, j := range []int{i - 1, i + 1} {
		if j < 0 || j >= len(evs) {
			continue
		}
		if o, r, _ := strings.Cut(evs[j], " "); strings.HasPrefix(o, "wg-") && strings.Contains(r, site) {
			return true
		}
	}
	return false
}

func projection(tr *trace.Trace) string {
	var buf bytes.Buffer
	if err := trace.WriteText(&buf, tr); err != nil {
		return err.Error()
	}
	byG := make(map[string][]string)
	var order []string
	for _, line := range strings.Split(buf.String(), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		g, rest, _ := strings.Cut(line, " ")
		if _, ok := byG[g]; !ok {
			order = append(order, g)
		}
		byG[g] = append(byG[g], rest)
	}
	sort.Strings(order)
	var out strings.Builder
	for _, g := range order {
		fmt.Fprintf(&out, "== %s\n", g)
		evs := byG[g]
		for i, e := range evs {
			if wgModel(evs, i) {
				continue
			}
			fmt.Fprintf(&out, "%s\n", e)
		}
	}
	// Which of several objects with one description gets #1 depends on
	// which goroutine reached it first: renumber in projection order.
	renum := make(map[string]string)
	count := make(map[string]int)
	return objRE.ReplaceAllStringFunc(out.String(), func(o string) string {
		if r, ok := renum[o]; ok {
			return r
		}
		desc := o[:strings.LastIndex(o, "#")]
		count[desc]++
		renum[o] = fmt.Sprintf("%s#%d", desc, count[desc])
		return renum[o]
	})
}

var objRE = regexp.MustCompile(`\S+#\d+`)

// TestGolden runs small programs instrumented and compares their traces,
// goroutine by goroutine, with the expected events.
func TestGolden(t *testing.T) {
	setupCorpus(t)
	for _, name := range []string{"gmutex", "ghandoff", "gwaitgroup", "gescape", "glang", "gloopold", "gsyncmap", "gnamedret", "gcopies", "gmapkey", "gpool", "ginit"} {
		t.Run(name, func(t *testing.T) {
			traceFile := filepath.Join(corpus.tmp, name+".golden.trace")
			out, _, err := run(t, corpus.inst, name, []string{"PECANVET_TRACE=" + traceFile}, "-test.run=TestGolden")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			tr, err := trace.ReadFile(traceFile, trace.ReadOptions{Lenient: true})
			if err != nil {
				t.Fatal(err)
			}
			got := projection(tr)
			golden := filepath.Join("testdata", "tricky", "golden", name, "trace.golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("trace of %s:\n%s\nwant:\n%s", name, got, want)
			}
		})
	}
}

// TestEscape checks that a local that never escapes is not instrumented
// while one captured by a closure is.
func TestEscape(t *testing.T) {
	setupCorpus(t)
	var objs []string
	for _, s := range corpus.res.Sites {
		if strings.HasPrefix(s.Pos, "golden/gescape/") {
			objs = append(objs, s.Obj)
		}
	}
	has := func(o string) bool {
		for _, x := range objs {
			if x == o {
				return true
			}
		}
		return false
	}
	if !has("Locals.captured") {
		t.Errorf("no site for the captured local: %v", objs)
	}
	for _, o := range []string{"Locals.plain", "Locals.i", "Locals.n"} {
		if has(o) {
			t.Errorf("site for the non-escaping local %s: %v", o, objs)
		}
	}
}

// TestRandPerGoroutine: recorded, two goroutines' draws from math/rand
// and math/rand/v2 are the same in every run (rt/rand.go); plain, they
// differ from run to run.
func TestRandPerGoroutine(t *testing.T) {
	setupCorpus(t)
	draws := func(bindir string, env ...string) string {
		out, _, err := run(t, bindir, "grand", env, "-test.run=TestDraws")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		i := strings.Index(out, "draws: ")
		if i < 0 {
			t.Fatalf("no draws in\n%s", out)
		}
		return strings.SplitN(out[i:], "\n", 2)[0]
	}
	trace := "PECANVET_TRACE=" + filepath.Join(t.TempDir(), "t.trace")
	if a, b := draws(corpus.inst, trace), draws(corpus.inst, trace); a != b {
		t.Errorf("recorded runs drew\n%s\n%s", a, b)
	}
	if a, b := draws(corpus.plain), draws(corpus.plain); a == b {
		t.Errorf("plain runs drew the same: %s", a)
	}
}

// TestMapOrder: recorded, a range over a map of string keys visits them
// in sorted order, in every run (rt/maporder.go).
func TestMapOrder(t *testing.T) {
	setupCorpus(t)
	out, _, err := run(t, corpus.inst, "maporder", []string{"PECANVET_TRACE=" + filepath.Join(t.TempDir(), "t.trace")}, "-test.run=TestKeys")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	i := strings.Index(out, "order: ")
	if i < 0 {
		t.Fatalf("no order in\n%s", out)
	}
	got := strings.Fields(strings.SplitN(out[i+len("order: "):], "\n", 2)[0])
	if len(got) != 26 || !slices.IsSorted(got) {
		t.Errorf("recorded order %q, want the 26 keys sorted", got)
	}
}

// TestMapValues: a store in a map element records the stored value's
// identity (trace.FlagVal, Event.Val) for element types whose bits are
// the value, and none for an interface or a string element; the same
// pointer stored twice, or through a named pointer type, has one
// identity, another pointer another (golden/gmapval).
func TestMapValues(t *testing.T) {
	setupCorpus(t)
	traceFile := filepath.Join(t.TempDir(), "t.trace")
	out, _, err := run(t, corpus.inst, "gmapval", []string{"PECANVET_TRACE=" + traceFile}, "-test.run=TestGolden")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tr, err := trace.ReadFile(traceFile, trace.ReadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	type store struct {
		val   uint64
		ident bool
	}
	at := map[int][]store{} // line of gmapval.go → its map writes
	for _, e := range tr.Events {
		if e.Op != trace.Write || e.Site < 0 || !strings.Contains(tr.Sites[e.Site], "gmapval.go:") {
			continue
		}
		var line int
		fmt.Sscanf(strings.SplitN(tr.Sites[e.Site], "gmapval.go:", 2)[1], "%d", &line)
		at[line] = append(at[line], store{e.Val, e.Flags&trace.FlagVal != 0})
	}
	one := func(line int) store {
		t.Helper()
		if len(at[line]) != 1 {
			t.Fatalf("line %d: %d map writes, want 1 (%v)", line, len(at[line]), at)
		}
		return at[line][0]
	}
	x1, x2, y, z, w := one(29), one(30), one(31), one(33), one(34)
	for _, s := range []store{x1, x2, y, z, w} {
		if !s.ident {
			t.Errorf("a pointer store without an identity: %v", at)
		}
	}
	if x1 != x2 || x1 != z || x1 == y || x1.val == 0 || w.val != 0 {
		t.Errorf("pointers: x %v %v, y %v, z %v, w %v: want x's and z's one identity, y's another, w's 0", x1, x2, y, z, w)
	}
	if s := one(35); s != (store{math.MaxUint64, true}) {
		t.Errorf("ints[\"i\"] = -1: %v", s)
	}
	if s := at[36]; len(s) != 2 || s[0] != (store{7, true}) || s[1] != (store{8, true}) {
		t.Errorf("ints[\"j\"], ints[\"k\"] = 7, 8: %v", s)
	}
	if s := one(37); s != (store{math.Float64bits(1), true}) {
		t.Errorf("fl[1] = 1: %v, want 1.0's bits", s)
	}
	if s := one(38); s != (store{1, true}) {
		t.Errorf("bs[2] = true: %v", s)
	}
	if s := one(39); s.ident {
		t.Errorf("ifs[3] = a (an interface): %v, want no identity", s)
	}
	if s := one(40); s.ident {
		t.Errorf("strs[4] = \"s\": %v, want no identity", s)
	}
	if s := one(41); !s.ident || s.val == 0 {
		t.Errorf("chs[5] = done: %v, want the channel's address", s)
	}
	if s := one(42); s.ident {
		t.Errorf("ints[\"i\"] += 2: %v, want no identity (a read-modify-write)", s)
	}
}

// TestSliceLens: a plain store of a slice-typed variable records the
// stored slice's length (trace.FlagLen, Event.Val), in the block form
// (a call or a recorded read on the right, a tuple) and the inline one
// (nil, a local variable); a store of an element or of an int records
// none (golden/gslicelen).
func TestSliceLens(t *testing.T) {
	setupCorpus(t)
	traceFile := filepath.Join(t.TempDir(), "t.trace")
	out, _, err := run(t, corpus.inst, "gslicelen", []string{"PECANVET_TRACE=" + traceFile}, "-test.run=TestGolden")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tr, err := trace.ReadFile(traceFile, trace.ReadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	at := map[int][]int64{} // line of gslicelen.go → its writes' lengths, -1 for none
	for _, e := range tr.Events {
		if e.Op != trace.Write || e.Site < 0 || !strings.Contains(tr.Sites[e.Site], "gslicelen.go:") {
			continue
		}
		var line int
		fmt.Sscanf(strings.SplitN(tr.Sites[e.Site], "gslicelen.go:", 2)[1], "%d", &line)
		n, ok := trace.StoredLen(e)
		if !ok {
			n = -1
		}
		at[line] = append(at[line], n)
	}
	want := map[int][]int64{25: {1}, 26: {3}, 27: {2}, 28: {0}, 30: {4}, 31: {-1, 3}, 32: {1}, 33: {5}, 35: {-1}}
	for line, w := range want {
		if !slices.Equal(at[line], w) {
			t.Errorf("line %d: lengths %v, want %v (all: %v)", line, at[line], w, at)
		}
	}
	if len(at[34]) == 0 || slices.ContainsFunc(at[34], func(n int64) bool { return n >= 0 }) {
		t.Errorf("line 34 (an element): %v, want writes without a length", at[34])
	}
}
