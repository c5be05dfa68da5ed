package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/gcexportdata"
)

// buildTool builds the pecanvet binary once per test.
func buildTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds pecanvet and runs go vet")
	}
	bin := filepath.Join(t.TempDir(), "pecanvet")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// copyTree copies the demo module and adds extra files.
func copyTree(t *testing.T, src string, extra map[string]string) string {
	t.Helper()
	dst := t.TempDir()
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, _ := os.ReadFile(p)
		os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	for name, content := range extra {
		os.MkdirAll(filepath.Dir(filepath.Join(dst, name)), 0o755)
		os.WriteFile(filepath.Join(dst, name), []byte(content), 0o644)
	}
	return dst
}

func hashTree(t *testing.T, dir string) string {
	h := sha256.New()
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		h.Write([]byte(p))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func goVet(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"vet"}, args...)...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

const plainPkg = `// Package plain has no concurrency: pecanvet does no dynamic work for it.
package plain

func Add(a, b int) int { return a + b }
`

// TestGoVet runs the real go vet with pecanvet as its vet tool on a copy
// of the demo module.
func TestGoVet(t *testing.T) {
	bin := buildTool(t)
	dir := copyTree(t, "../../examples/demo", map[string]string{"plain/plain.go": plainPkg})
	before := hashTree(t, dir)

	code, out := goVet(t, dir, "-vettool="+bin, "./...")
	if code != 1 {
		t.Errorf("exit code %d, want 1 (diagnostics)\n%s", code, out)
	}
	// One clause; the steps follow as related information, the anomaly's
	// events marked, no region markers.
	want := "bank/bank.go:17:11: atomicity violation on Account.balance: another goroutine's write can fall between this read and the write at bank.go:24; reproduced, test fails: bank_test.go:19: balance = 10, want 30\n"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks\n%s\ngot:\n%s", want, out)
	}
	if !strings.Contains(out, "bank/bank.go:24:4: \tstep") || !strings.Contains(out, "write Account.balance#1 (e2)\n") {
		t.Errorf("no steps as related information, or the anomaly's events unmarked:\n%s", out)
	}
	// README.md shows this diagnostic verbatim, and some of its steps
	// (their numbers aside: how many steps a schedule takes is the
	// runtime's business).
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	shown := regexp.MustCompile(`(?m)^    (bank/\w+\.go:\d+:\d+: .*)$`).FindAllSubmatch(readme, -1)
	if len(shown) < 2 || string(shown[0][1])+"\n" != want {
		t.Errorf("README.md's example does not start with the diagnostic go vet prints:\n%s", want)
	}
	stepNo := regexp.MustCompile(`step \d+:`)
	for _, m := range shown[min(1, len(shown)):] {
		if l := stepNo.ReplaceAllString(string(m[1]), "step N:"); !strings.Contains(stepNo.ReplaceAllString(out, "step N:"), l+"\n") {
			t.Errorf("README.md's example shows a step go vet does not print:\n%s\ngot:\n%s", m[1], out)
		}
	}
	if strings.Contains(out, "region-") {
		t.Errorf("region markers among the steps:\n%s", out)
	}
	if strings.Contains(out, "plain") {
		t.Errorf("the package without concurrency got output:\n%s", out)
	}
	if hashTree(t, dir) != before {
		t.Errorf("go vet -vettool=pecanvet changed the module's files")
	}

	// -json: vet's JSON format, keyed by package and analyzer.
	code, out = goVet(t, dir, "-vettool="+bin, "-json", "./bank")
	var m map[string]map[string][]struct {
		Posn, Message string
		Related       []struct{ Posn, Message string }
	}
	start := strings.Index(out, "{")
	if start < 0 || json.Unmarshal([]byte(out[start:]), &m) != nil {
		t.Fatalf("exit %d, output not JSON:\n%s", code, out)
	}
	var diags int
	for _, byAnalyzer := range m {
		for _, ds := range byAnalyzer["pecan"] {
			diags++
			if !strings.Contains(ds.Message, "atomicity violation") || len(ds.Related) == 0 {
				t.Errorf("JSON diagnostic %+v", ds)
			}
		}
	}
	if diags == 0 {
		t.Errorf("no pecan diagnostics in JSON:\n%s", out)
	}

	// -pecan.replay=false: the static candidates, marked unconfirmed.
	_, out = goVet(t, dir, "-vettool="+bin, "-pecan.replay=false", "./bank")
	if !strings.Contains(out, "not confirmed (-pecan.replay=false)") {
		t.Errorf("-pecan.replay=false output:\n%s", out)
	}
}

// TestGoVetTypeError: a package that does not type-check gets vet's own
// error, and pecanvet does not crash.
func TestGoVetTypeError(t *testing.T) {
	bin := buildTool(t)
	dir := copyTree(t, "../../examples/demo", map[string]string{
		"broken/broken.go": "package broken\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\nfunc F() int { mu.Lock(); return undefinedName }\n",
	})
	code, out := goVet(t, dir, "-vettool="+bin, "./broken")
	if code == 0 || !strings.Contains(out, "broken.go:7") || !strings.Contains(out, "undefined") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	if strings.Contains(out, "panic") {
		t.Errorf("pecanvet panicked:\n%s", out)
	}
}

// TestGoVetExternalTests: a race between goroutines of an external test
// package (package p_test), which go test -race reports, is reported by
// go vet too: p_test's unit runs the tests (pecan.VetUnits).
func TestGoVetExternalTests(t *testing.T) {
	bin := buildTool(t)
	dir := copyTree(t, "../../examples/demo", map[string]string{
		"counter/counter.go":        "// Package counter counts under a lock.\npackage counter\n\nimport \"sync\"\n\n// C counts.\ntype C struct {\n\tmu sync.Mutex\n\tn  int\n}\n\n// Inc adds one.\nfunc (c *C) Inc() {\n\tc.mu.Lock()\n\tc.n++\n\tc.mu.Unlock()\n}\n",
		"counter/counter_x_test.go": "package counter_test\n\nimport (\n\t\"sync\"\n\t\"testing\"\n\n\t\"example.com/demo/counter\"\n)\n\nfunc TestTotal(t *testing.T) {\n\tvar c counter.C\n\ttotal := 0\n\tvar wg sync.WaitGroup\n\tfor i := 0; i < 2; i++ {\n\t\twg.Add(1)\n\t\tgo func() {\n\t\t\tdefer wg.Done()\n\t\t\tc.Inc()\n\t\t\ttotal++\n\t\t}()\n\t}\n\twg.Wait()\n\tif total > 2 {\n\t\tt.Fatal(total)\n\t}\n}\n",
	})
	code, out := goVet(t, dir, "-vettool="+bin, "./counter")
	if code != 1 || !regexp.MustCompile(`(?m)^counter/counter_x_test\.go:19:\d+: data race on TestTotal\.total`).MatchString(out) {
		t.Errorf("exit %d, want 1 and the race at counter_x_test.go:19:\n%s", code, out)
	}
}

// TestGoVetEditExternalTest: go vet answers a unit from its cache when
// the unit's files and its imports' compiled packages are unchanged. An
// edit to an external test file alone must still be checked: the run
// after it reports the race the edit made, the run after the next edit
// no longer reports it, and an edit to the package's own file alone is
// checked too, reported at its file:line:col in text and in -json.
func TestGoVetEditExternalTest(t *testing.T) {
	bin := buildTool(t)
	const pkg = "// Package counter counts under a lock.\npackage counter\n\nimport \"sync\"\n\n// C counts.\ntype C struct {\n\tmu sync.Mutex\n\tn  int\n}\n\n// Inc adds one.\nfunc (c *C) Inc() {\n\tc.mu.Lock()\n\tc.n++\n\tc.mu.Unlock()\n}\n"
	const test = "package counter_test\n\nimport (\n\t\"sync\"\n\t\"testing\"\n\n\t\"example.com/demo/counter\"\n)\n\nfunc TestTotal(t *testing.T) {\n\tvar c counter.C\n\ttotal := 0\n\tvar mu sync.Mutex\n\tvar wg sync.WaitGroup\n\tfor i := 0; i < 2; i++ {\n\t\twg.Add(1)\n\t\tgo func() {\n\t\t\tdefer wg.Done()\n\t\t\tc.Inc()\n\t\t\tmu.Lock()\n\t\t\ttotal++\n\t\t\tmu.Unlock()\n\t\t}()\n\t}\n\twg.Wait()\n\tif total > 2 {\n\t\tt.Fatal(total)\n\t}\n}\n"
	racyTest := strings.NewReplacer("\tvar mu sync.Mutex\n", "", "\t\t\tmu.Lock()\n", "", "\t\t\tmu.Unlock()\n", "").Replace(test)
	dir := copyTree(t, "../../examples/demo", map[string]string{"counter/counter.go": pkg, "counter/counter_x_test.go": test})
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "counter", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	race := regexp.MustCompile(`(?m)^counter/counter_x_test\.go:19:\d+: data race on TestTotal\.total`)

	code, out := goVet(t, dir, "-vettool="+bin, "./counter")
	if code != 0 || strings.Contains(out, "data race") {
		t.Fatalf("race-free tests: exit %d, want 0 and no report:\n%s", code, out)
	}
	write("counter_x_test.go", racyTest)
	code, out = goVet(t, dir, "-vettool="+bin, "./counter")
	if code != 1 || !race.MatchString(out) {
		t.Errorf("after the external test's edit: exit %d, want 1 and the race at counter_x_test.go:19:\n%s", code, out)
	}
	// -json's output is cached with the diagnostics: it must not be
	// the race-free run's either.
	code, out = goVet(t, dir, "-vettool="+bin, "-json", "./counter")
	if !strings.Contains(out, "counter_x_test.go:19:") {
		t.Errorf("-json after the edit: exit %d, no race at counter_x_test.go:19:\n%s", code, out)
	}
	write("counter_x_test.go", test)
	code, out = goVet(t, dir, "-vettool="+bin, "./counter")
	if code != 0 || strings.Contains(out, "data race") {
		t.Errorf("after the race's fix in the external test: exit %d, want 0 and no report:\n%s", code, out)
	}

	// The package's own file alone: the external test package's unit,
	// which runs the tests, reports at the package's file.
	write("counter.go", strings.NewReplacer("\tc.mu.Lock()\n", "", "\tc.mu.Unlock()\n", "").Replace(pkg))
	code, out = goVet(t, dir, "-vettool="+bin, "./counter")
	if code != 1 || !regexp.MustCompile(`(?m)^counter/counter\.go:14:\d+: data race on C\.n`).MatchString(out) {
		t.Errorf("after the package's edit: exit %d, want 1 and the race at counter.go:14:\n%s", code, out)
	}
	_, out = goVet(t, dir, "-vettool="+bin, "-json", "./counter")
	// One JSON object per unit, after go vet's "# package" lines.
	var posns []string
	start := strings.Index(out, "{")
	if start < 0 {
		t.Fatalf("-json: output not JSON:\n%s", out)
	}
	for dec := json.NewDecoder(strings.NewReader(out[start:])); dec.More(); {
		var m map[string]map[string][]struct{ Posn string }
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("-json: %v:\n%s", err, out)
		}
		for _, byAnalyzer := range m {
			for _, d := range byAnalyzer["pecan"] {
				posns = append(posns, d.Posn)
			}
		}
	}
	if want := filepath.Join(dir, "counter", "counter.go") + ":14:"; len(posns) == 0 || !strings.HasPrefix(posns[0], want) {
		t.Errorf("-json: diagnostics at %q, want at %s", posns, want)
	}
}

// TestVetProtocol: the parts of the vet tool protocol besides plain
// diagnostics and -json (TestGoVet): -V=full and -flags, which the go
// command asks before running the tool; -c=N context lines; go vet -fix
// and go fix, which must neither fail nor change anything (pecanvet
// suggests no fixes).
func TestVetProtocol(t *testing.T) {
	bin := buildTool(t)
	out, err := exec.Command(bin, "-V=full").CombinedOutput()
	if err != nil || !regexp.MustCompile(`^\S*pecanvet version \S.* buildID=[0-9a-f]+\n$`).Match(out) {
		t.Errorf("-V=full: %v %q", err, out)
	}
	out, err = exec.Command(bin, "-flags").Output()
	var flags []struct {
		Name  string
		Bool  bool
		Usage string
	}
	if err != nil || json.Unmarshal(out, &flags) != nil {
		t.Fatalf("-flags: %v %s", err, out)
	}
	have := map[string]bool{}
	for _, f := range flags {
		have[f.Name] = true
	}
	for _, want := range []string{"pecan.patterns", "pecan.budget", "pecan.replay", "pecan.maxreplays", "json", "c", "V", "flags"} {
		if !have[want] {
			t.Errorf("-flags lacks %s: %s", want, out)
		}
	}

	dir := copyTree(t, "../../examples/demo", nil)
	before := hashTree(t, dir)
	code, vout := goVet(t, dir, "-vettool="+bin, "-c=1", "./bank")
	if code != 1 || !strings.Contains(vout, "bank/bank.go:17:11: atomicity violation") || !strings.Contains(vout, "17\t\treturn a.balance\n") || !strings.Contains(vout, "16\t\tdefer a.mu.Unlock()\n") {
		t.Errorf("-c=1: exit %d, want the diagnostic with one line of context each side:\n%s", code, vout)
	}
	code, vout = goVet(t, dir, "-vettool="+bin, "-fix", "./bank")
	if code != 0 || strings.Contains(vout, "panic") {
		t.Errorf("go vet -fix: exit %d\n%s", code, vout)
	}
	cmd := exec.Command("go", "fix", "-fixtool="+bin, "./bank")
	cmd.Dir = dir
	if fout, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(fout), "panic") {
		t.Errorf("go fix -fixtool=pecanvet: %v\n%s", err, fout)
	}
	if hashTree(t, dir) != before {
		t.Error("-c, -fix or go fix changed the module's files")
	}
}

// TestDirectRequirements: go.mod lists what pecanvet imports as direct
// requirements (go mod tidy), not as // indirect.
func TestDirectRequirements(t *testing.T) {
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "golang.org/x/tools ") && strings.Contains(l, "// indirect") {
			t.Errorf("go.mod: %q: pecanvet imports x/tools directly", strings.TrimSpace(l))
		}
	}
	if !strings.Contains(string(b), "golang.org/x/tools v") {
		t.Error("go.mod does not require golang.org/x/tools")
	}
}

// TestReplayFlag: the vet tool picks the analyzer from -pecan.replay as the
// flag package parses it, before unitchecker does.
func TestReplayFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"x.cfg"}, true},
		{[]string{"-pecan.replay=false", "x.cfg"}, false},
		{[]string{"--pecan.replay=false", "x.cfg"}, false},
		{[]string{"-pecan.replay=0", "x.cfg"}, false},
		{[]string{"-pecan.replay=F", "-json", "x.cfg"}, false},
		{[]string{"-pecan.replay=false", "-pecan.replay", "x.cfg"}, true},
		{[]string{"-pecan.replay=maybe", "x.cfg"}, true},
		{[]string{"-pecan.replayx=false", "x.cfg"}, true},
		{[]string{"x.cfg", "-pecan.replay=false"}, true},
	} {
		if got := replayFlag(tc.args); got != tc.want {
			t.Errorf("replayFlag(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestVetxFromExportData: a root unit's imports get .vetx files in
// unitchecker's format (magic, lengths, indexed types without their 'i',
// no facts) read from the compiler's export data, and the config copy
// names them, other fields kept.
func TestVetxFromExportData(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list -export")
	}
	out, err := exec.Command("go", "list", "-export", "-f", "{{.Export}}", "sync").Output()
	if err != nil {
		t.Fatal(err)
	}
	archive := strings.TrimSpace(string(out))
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "vet.cfg")
	raw := []byte(`{"ID":"p","ImportPath":"p","PackageFile":{"sync":"` + archive + `"},"PackageVetx":{"sync":"empty.vetx","unsafe":"u.vetx"},"VetxOnly":false}`)
	newCfg, err := vetxFromExportData(cfgPath, raw, dir, map[string]string{"sync": archive}, map[string]string{"sync": "empty.vetx", "unsafe": "u.vetx"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(newCfg)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		ID          string
		PackageVetx map[string]string
	}
	if err := json.Unmarshal(b, &cfg); err != nil || cfg.ID != "p" || cfg.PackageVetx["unsafe"] != "u.vetx" || cfg.PackageVetx["sync"] == "empty.vetx" {
		t.Fatalf("config copy: %v %s", err, b)
	}
	data, err := os.ReadFile(cfg.PackageVetx["sync"])
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 12 || string(data[:4]) != "vetx" {
		t.Fatalf("not a vetx file: %q", data[:min(len(data), 12)])
	}
	typesLen, factsLen := binary.LittleEndian.Uint32(data[4:8]), binary.LittleEndian.Uint32(data[8:12])
	if factsLen != 0 || int(typesLen) != len(data)-12 {
		t.Fatalf("lengths %d+%d of %d bytes", typesLen, factsLen, len(data)-12)
	}
	pkg, err := gcexportdata.Read(bytes.NewReader(append([]byte("i"), data[12:]...)), token.NewFileSet(), map[string]*types.Package{}, "sync")
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Scope().Lookup("Mutex") == nil {
		t.Errorf("sync's types lack Mutex")
	}

	empty := filepath.Join(dir, "dep.vetx")
	if err := writeEmptyVetx(empty); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(empty); string(b) != "vetx\x00\x00\x00\x00\x00\x00\x00\x00" {
		t.Errorf("empty vetx: %q", b)
	}
}
