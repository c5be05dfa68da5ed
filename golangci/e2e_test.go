package golangci_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGolangciLintBinary runs the custom golangci-lint that `make
// golangci-lint` builds (its path in PECANVET_GOLANGCI_LINT; `make
// eval-golangci` sets it) on a subject and its fixed twin, with the
// configuration docs/golangci-lint.md shows: the subject's race is one issue whose
// text carries the interleaving, the fixed twin gets none. Building
// golangci-lint takes minutes, so the default test run skips this.
func TestGolangciLintBinary(t *testing.T) {
	bin := os.Getenv("PECANVET_GOLANGCI_LINT")
	if bin == "" {
		t.Skip("set PECANVET_GOLANGCI_LINT to the binary `make golangci-lint` builds (make eval-golangci does)")
	}
	dir := t.TempDir()
	for _, s := range []string{"doubleclose", "doubleclosefixed"} {
		copyDir(t, filepath.Join("testdata/subjects", s), filepath.Join(dir, s))
	}
	writeFile(t, filepath.Join(dir, "go.mod"), "module subjects\n\ngo 1.24\n")
	writeFile(t, filepath.Join(dir, ".golangci.yml"), docConfig(t))

	cmd := exec.Command(bin, "run", "--output.json.path=stdout", "--output.text.path=stderr", "./...")
	cmd.Dir = dir
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("golangci-lint run: %v, want exit status 1 (issues found)\n%s%s", err, out.String(), errs.String())
	}
	t.Logf("golangci-lint run:\n%s", errs.String())
	var res struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename string
				Line     int
			}
		}
	}
	// The JSON report, then the summary ("1 issues: …").
	if err := json.NewDecoder(&out).Decode(&res); err != nil {
		t.Fatalf("JSON output: %v\n%s", err, out.String())
	}
	found := false
	for _, is := range res.Issues {
		file := filepath.ToSlash(is.Pos.Filename)
		switch {
		case is.FromLinter != "pecanvet":
			t.Errorf("issue from %s: %s", is.FromLinter, is.Text)
		case strings.HasPrefix(file, "doubleclosefixed/"):
			t.Errorf("fixed twin: %s:%d: %s", file, is.Pos.Line, is.Text)
		case strings.Contains(is.Text, "related information"):
			t.Errorf("related information as an issue: %s", is.Text)
		case file == "doubleclose/server.go" && is.Pos.Line == 17 &&
			regexp.MustCompile(`^data race on Server\.stopped: .*; reproduced, .*; g\S+ read Server\.stopped \(server\.go:17\) → g\S+ write Server\.stopped \(server\.go:18\)$`).MatchString(is.Text):
			found = true
		}
	}
	if !found {
		t.Errorf("no issue for doubleclose's race at server.go:17 with its interleaving; got %+v", res.Issues)
	}
}

// docConfig is the .golangci.yml of docs/golangci-lint.md (the yaml block
// that enables pecanvet).
func docConfig(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(golangciDoc)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(b, -1) {
		if bytes.Contains(m[1], []byte("type: module")) && bytes.Contains(m[1], []byte("pecanvet")) {
			return string(m[1])
		}
	}
	t.Fatalf("%s has no yaml block configuring the pecanvet module plugin", golangciDoc)
	return ""
}

// golangciDoc documents the plugin's configuration.
const golangciDoc = "../docs/golangci-lint.md"

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dst, e.Name()), string(b))
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
