package main

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDriversDir runs `pecanvet check -driversdir DIR` as a user does on
// subjects whose drivers copy a test's setup (a ledger, a pool built with
// a function literal, a generic cache): a driver file is written per
// package, under the package's path; it is gofmt'd; each driver names the
// test and the line its setup came from, and that line is in that test
// and calls a method the driver calls; copied next to its package, the
// file compiles with the package's tests.
func TestDriversDir(t *testing.T) {
	bin := buildTool(t)
	src, err := filepath.Abs("../../testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []string{"drvledger", "drvpool", "drvgeneric"}
	mod := t.TempDir()
	for _, name := range append([]string{"go.mod"}, pkgs...) {
		if name == "go.mod" {
			b, err := os.ReadFile(filepath.Join(src, name))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(mod, name), b, 0o644)
			continue
		}
		sub := copyTree(t, filepath.Join(src, name), nil)
		if err := os.Rename(sub, filepath.Join(mod, name)); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	cmd := exec.Command(bin, "check", "-q", "-driversdir", out, "./...")
	cmd.Dir = mod
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if _, exit := err.(*exec.ExitError); !exit {
			t.Fatal(err) // exit 1: findings, as the buggy subjects have
		}
	}
	// "// TestPecanvetDriver_Ledger_Withdraw_Withdraw calls ...,\n// set up as TestWithdraw (ledger_test.go:11) sets one up."
	header := regexp.MustCompile(`(?m)^// (TestPecanvetDriver_\w+) calls (\w+) and (\w+) of .*\n// set up as (\w+) \(([\w.]+):(\d+)\) sets one up\.$`)
	for _, pkg := range pkgs {
		path := filepath.Join(out, pkg, "zz_pecanvet_driver_test.go")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no driver file written: %v\n%s", pkg, err, stderr.String())
			continue
		}
		if f, err := format.Source(b); err != nil || !bytes.Equal(f, b) {
			t.Errorf("%s: driver file not gofmt'd (err %v)", pkg, err)
		}
		ms := header.FindAllStringSubmatch(string(b), -1)
		if len(ms) == 0 {
			t.Errorf("%s: no driver headed by the test its setup came from:\n%s", pkg, b)
		}
		for _, m := range ms {
			test, file, m0, m1 := m[4], m[5], m[2], m[3]
			line, _ := strconv.Atoi(m[6])
			tb, err := os.ReadFile(filepath.Join(mod, pkg, file))
			if err != nil {
				t.Errorf("%s: %s names %s: %v", pkg, m[1], file, err)
				continue
			}
			lines := strings.Split(string(tb), "\n")
			if line < 1 || line > len(lines) || !(strings.Contains(lines[line-1], "."+m0+"(") || strings.Contains(lines[line-1], "."+m1+"(")) {
				t.Errorf("%s: %s names %s:%d, which calls neither %s nor %s", pkg, m[1], file, line, m0, m1)
				continue
			}
			// The line is in the named test: the last func before it is the test.
			in := ""
			for _, l := range lines[:line] {
				if strings.HasPrefix(l, "func ") {
					in = l
				}
			}
			if !strings.HasPrefix(in, "func "+test+"(") {
				t.Errorf("%s: %s names %s:%d, which is in %q, not in %s", pkg, m[1], file, line, in, test)
			}
			if !strings.Contains(string(b), "// From "+test+" ("+file+":"+m[6]+"), up to its first call of ") {
				t.Errorf("%s: %s does not say where its copied statements start", pkg, m[1])
			}
		}
		// Kept as a test: next to its package, it compiles with the
		// package's own tests.
		if err := os.WriteFile(filepath.Join(mod, pkg, "zz_pecanvet_driver_test.go"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "test", "-count=1", "-run", "^$", "./...")
	build.Dir = mod
	if b, err := build.CombinedOutput(); err != nil {
		t.Errorf("the written drivers do not compile beside their packages: %v\n%s", err, b)
	}
}
