package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGoVetModuleShapes runs the real go vet with pecanvet on one small
// module per shape the go command builds (testdata/modules): a module
// declaring go 1.16 with a dependency, a go.work workspace, a vendored
// module, a directory of external tests only, a package with its own
// TestMain reading testdata/, a package whose only tests are benchmarks,
// and a helper package of the module whose race only another package's
// tests run (reported under that package). Each has a lost update on
// Tally.n (helperpkg: a plain read racing with atomic adds), which must be
// reported, and a fixed twin, which must report nothing; neither may skip
// the check or fail a test.
func TestGoVetModuleShapes(t *testing.T) {
	bin := buildTool(t)
	for _, c := range []struct {
		shape string
		dir   string // where go vet runs, inside the module copy
		file  string // the file the bug is reported in
	}{
		{"go116", ".", "tally.go"},
		{"workspace", "app", "tally.go"},
		{"vendored", ".", "tally.go"},
		{"xtestonly", ".", "integration/tally_test.go"},
		{"testmain", ".", "tally.go"},
		{"benchonly", ".", "tally.go"},
		{"helperpkg", ".", "tally/tally.go"},
	} {
		for _, fixed := range []bool{false, true} {
			name := c.shape
			if fixed {
				name += "fixed"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				root := copyTree(t, filepath.Join("testdata/modules", name), nil)
				before := hashTree(t, root)
				code, out := goVet(t, filepath.Join(root, c.dir), "-vettool="+bin, "./...")
				if hashTree(t, root) != before {
					t.Errorf("go vet -vettool=pecanvet changed the module's files")
				}
				// A diagnostic may say the replayed test fails: that is its
				// proof. The other lines are go vet's and pecanvet's notes,
				// which must not say the package went unchecked.
				diag := regexp.MustCompile(`^\S+\.go:\d+:\d+: `)
				for _, line := range strings.Split(out, "\n") {
					if diag.MatchString(line) {
						continue
					}
					for _, bad := range []string{"skipped", "fails", "no test", "not checked", "panic"} {
						if strings.Contains(line, bad) {
							t.Errorf("output says %q:\n%s", bad, out)
						}
					}
				}
				reported := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.file) + `:\d+:\d+: (data race|atomicity violation) on Tally\.n: .*reproduced`).MatchString(out)
				switch {
				case !fixed && (code != 1 || !reported):
					t.Errorf("exit %d; want 1 and the lost update on Tally.n reported in %s:\n%s", code, c.file, out)
				case fixed && (code != 0 || strings.TrimSpace(out) != ""):
					t.Errorf("fixed twin: exit %d, output:\n%s", code, out)
				}
			})
		}
	}
}
