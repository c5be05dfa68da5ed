package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/internal/jsonschema"
)

// schemaPath is absolute: the tests change directory.
var schemaPath, _ = filepath.Abs("../../internal/sarif/testdata/sarif-schema-2.1.0.json")

func validateSARIF(t *testing.T, log []byte) map[string]any {
	t.Helper()
	b, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jsonschema.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(log); err != nil {
		t.Fatalf("not valid SARIF 2.1.0:\n%v\n%s", err, log)
	}
	var m map[string]any
	json.Unmarshal(log, &m)
	return m
}

// readmeWorkflow returns the GitHub workflow of the README's "CI with
// SARIF" section.
func readmeWorkflow(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## CI with SARIF\n.*?```yaml\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("README has no CI with SARIF section with a yaml block")
	}
	return string(m[1])
}

// TestREADMEWorkflowShape checks the workflow's YAML syntactically (two-
// space indentation, "key: value" or "- " items, no tabs) and that it
// uploads the file the check writes.
func TestREADMEWorkflowShape(t *testing.T) {
	wf := readmeWorkflow(t)
	line := regexp.MustCompile(`^((  )*)(- )?([A-Za-z_-]+:( .*)?|[a-z]+: \[.*\])$`)
	for i, l := range strings.Split(strings.TrimRight(wf, "\n"), "\n") {
		if !line.MatchString(l) {
			t.Errorf("workflow line %d is not simple YAML: %q", i+1, l)
		}
	}
	for _, want := range []string{"security-events: write", "uses: github/codeql-action/upload-sarif@v", "uses: actions/checkout@", "sarif_file: pecanvet.sarif"} {
		if !strings.Contains(wf, want) {
			t.Errorf("workflow lacks %q", want)
		}
	}
	args, file := readmeCheck(t, wf)
	if file != "pecanvet.sarif" || args[len(args)-1] != "./..." {
		t.Errorf("check command %q writes %q, the upload reads pecanvet.sarif", args, file)
	}
}

// readmeCheck returns the workflow's pecanvet check arguments and the
// SARIF file they write.
func readmeCheck(t *testing.T, wf string) (args []string, file string) {
	m := regexp.MustCompile(`(?m)^ *- run: pecanvet (check .*?)(?: \|\| \[ \$\? -eq 1 \])?$`).FindStringSubmatch(wf)
	if m == nil {
		t.Fatalf("no pecanvet check step in the workflow:\n%s", wf)
	}
	args = strings.Fields(m[1])
	for _, a := range args {
		if f, ok := strings.CutPrefix(a, "-sarif="); ok {
			file = f
		}
	}
	return args, file
}

// TestSARIFInCI runs the README workflow's pecanvet check line in a git
// repository holding a copy of the account subject: the file it writes
// validates against the SARIF 2.1.0 schema, every result has a code flow
// in execution order, and URIs are relative to the repository root.
func TestSARIFInCI(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays a subject's tests")
	}
	args, file := readmeCheck(t, readmeWorkflow(t))
	repoDir := t.TempDir()
	os.Mkdir(filepath.Join(repoDir, ".git"), 0o755)
	os.Mkdir(filepath.Join(repoDir, "svc"), 0o755)
	srcs, _ := filepath.Glob("testdata/account/*.go")
	if len(srcs) < 2 {
		t.Fatalf("account subject: %d files", len(srcs))
	}
	for _, p := range srcs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(repoDir, "svc", filepath.Base(p)), b, 0o644)
	}
	if err := os.WriteFile(filepath.Join(repoDir, "svc", "go.mod"), []byte("module example.com/svc\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(repoDir, "svc"))
	code, out, errs := runCmd(t, args...)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (anomalies reproduced)\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if !strings.Contains(out, "reproduced") {
		t.Errorf("-sarif=FILE: the text report is missing from stdout:\n%s", out)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := validateSARIF(t, b)
	run := m["runs"].([]any)[0].(map[string]any)
	results := run["results"].([]any)
	if len(results) < 3 {
		t.Fatalf("%d results, want account's races and atomicity violations", len(results))
	}
	kinds := map[string]bool{}
	for _, r := range results {
		r := r.(map[string]any)
		kinds[r["ruleId"].(string)] = true
		loc := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["artifactLocation"].(map[string]any)
		if loc["uri"] != "svc/account.go" || loc["uriBaseId"] != "SRCROOT" {
			t.Errorf("result location %v, want svc/account.go relative to SRCROOT", loc)
		}
		flows, _ := r["codeFlows"].([]any)
		if len(flows) != 1 {
			t.Errorf("result %v: %d code flows, want 1", r["message"], len(flows))
			continue
		}
		tfl := flows[0].(map[string]any)["threadFlows"].([]any)[0].(map[string]any)["locations"].([]any)
		last, essential := 0.0, 0
		for _, l := range tfl {
			l := l.(map[string]any)
			if o := l["executionOrder"].(float64); o <= last {
				t.Errorf("execution order %v after %v", o, last)
			} else {
				last = o
			}
			if l["importance"] == "essential" {
				essential++
			}
			if msg := l["location"].(map[string]any)["message"].(map[string]any)["text"].(string); !regexp.MustCompile(`^step \d+: g[0-9.]+ [a-z-]+`).MatchString(msg) {
				t.Errorf("thread flow step message %q names no goroutine and operation", msg)
			}
		}
		if essential < 2 {
			t.Errorf("result %v: %d anomaly steps in its code flow", r["message"], essential)
		}
		if fp := r["partialFingerprints"].(map[string]any)["pecanvetFinding/v1"]; fp == nil || fp == "" {
			t.Errorf("result without a fingerprint")
		}
	}
	if !kinds["race"] || !kinds["av"] {
		t.Errorf("rules of the results %v, want race and av", kinds)
	}
	if base := run["originalUriBaseIds"].(map[string]any)["SRCROOT"].(map[string]any)["uri"].(string); !strings.HasSuffix(base, "/") || strings.Contains(base, "/svc/") {
		t.Errorf("SRCROOT %s, want the repository root", base)
	}
}

// TestSARIFStdout: -sarif alone prints only SARIF on standard output (the
// summary goes to standard error); it cannot share stdout with -json; and
// a failed run leaves no file, not even an old one's replacement.
func TestSARIFStdout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test")
	}
	dir := copyTree(t, "../../examples/demo", map[string]string{
		"plain/plain.go":      plainPkg,
		"plain/plain_test.go": "package plain\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
	})
	t.Chdir(dir)
	code, out, errs := runCmd(t, "check", "-q", "-sarif", "./plain")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	m := validateSARIF(t, []byte(out))
	if n := len(m["runs"].([]any)[0].(map[string]any)["results"].([]any)); n != 0 {
		t.Errorf("%d results for a package without concurrency", n)
	}
	if !strings.Contains(errs, "0 reproduced") {
		t.Errorf("summary not on stderr: %q", errs)
	}

	if code, _, errs := runCmd(t, "check", "-json", "-sarif", "./plain"); code != 2 || !strings.Contains(errs, "-sarif=FILE") {
		t.Errorf("-json -sarif: exit %d, %s", code, errs)
	}

	old := filepath.Join(dir, "old.sarif")
	os.WriteFile(old, []byte("previous run"), 0o644)
	for _, f := range []string{old, filepath.Join(dir, "new.sarif")} {
		code, _, errs := runCmd(t, "check", "-q", "-sarif="+f, "./nosuchpkg")
		if code != 2 {
			t.Errorf("check of a missing package: exit %d, want 2\n%s", code, errs)
		}
	}
	if b, _ := os.ReadFile(old); !bytes.Equal(b, []byte("previous run")) {
		t.Errorf("a failed run changed the old SARIF file: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.sarif")); !os.IsNotExist(err) {
		t.Errorf("a failed run left a SARIF file (%v)", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left", e.Name())
		}
	}
}

// TestSARIFCorpus runs pecanvet check -sarif on the evaluation subjects
// named by PECANVET_SARIF_CORPUS ("all", or package patterns such as
// "./elevator ./doubleclose"; long, so not by default): the log validates,
// every reproduced anomaly is a result, and every result has a code flow
// whose anomaly steps are marked.
func TestSARIFCorpus(t *testing.T) {
	spec := os.Getenv("PECANVET_SARIF_CORPUS")
	if spec == "" {
		t.Skip("set PECANVET_SARIF_CORPUS=all (or subject patterns) to check the corpus")
	}
	pkgs := strings.Fields(spec)
	if spec == "all" {
		pkgs = []string{"./..."}
	}
	t.Chdir("../../testdata/src")
	out := filepath.Join(t.TempDir(), "corpus.sarif")
	code, text, errs := runCmd(t, append([]string{"check", "-q", "-sarif=" + out}, pkgs...)...)
	if code == 2 {
		t.Fatalf("exit 2\n%s", errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m := validateSARIF(t, b)
	results := m["runs"].([]any)[0].(map[string]any)["results"].([]any)
	// "… N reproduced", perhaps followed by "(and M without effect, …)":
	// those are not reported, so not results either.
	m2 := regexp.MustCompile(`(\d+) reproduced(?: \(and \d+ without effect[^)]*\))?\n`).FindStringSubmatch(text)
	if m2 == nil || m2[1] != strconv.Itoa(len(results)) {
		t.Errorf("%d results; the text report says %v", len(results), m2)
	}
	for _, r := range results {
		r := r.(map[string]any)
		flows, _ := r["codeFlows"].([]any)
		if len(flows) != 1 || !strings.Contains(string(mustMarshal(flows)), `"essential"`) {
			t.Errorf("result %v: code flows %s", r["message"], mustMarshal(flows))
		}
	}
	t.Logf("%d results", len(results))
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
