package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// benchVetFastpath times go vet with its own analyzers against go vet with
// pecanvet as the vet tool, on packages without concurrency (which pecanvet
// must not spend dynamic work on). Each round edits a comment in the
// package so that neither vet result comes from the cache, while the
// dependencies' facts do (as when vetting after an edit).
func benchVetFastpath(runs int) error {
	tmp, err := os.MkdirTemp("", "pecanvet-vetbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "pecanvet")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/pecanvet").CombinedOutput(); err != nil {
		return fmt.Errorf("building pecanvet: %v\n%s", err, out)
	}
	mod := filepath.Join(tmp, "mod")
	// Packages without goroutines, channels, sync or atomics: copies of
	// pecanvet's trace formats and of the standard library's text/tabwriter
	// and container/list.
	goroot := runtimeGOROOT()
	copies := map[string]string{
		"trace":     "ssatrace/trace",
		"tabwriter": filepath.Join(goroot, "src/text/tabwriter"),
		"list":      filepath.Join(goroot, "src/container/list"),
	}
	os.MkdirAll(mod, 0o755)
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/fastpath\n\ngo 1.24\n"), 0o644)
	for dst, src := range copies {
		os.MkdirAll(filepath.Join(mod, dst), 0o755)
		ents, _ := os.ReadDir(src)
		for _, e := range ents {
			name := e.Name()
			if e.IsDir() || filepath.Ext(name) != ".go" || len(name) > 8 && name[len(name)-8:] == "_test.go" {
				continue
			}
			b, _ := os.ReadFile(filepath.Join(src, name))
			os.WriteFile(filepath.Join(mod, dst, name), b, 0o644)
		}
	}
	for _, pkg := range []string{"trace", "tabwriter", "list"} {
		var plain, pecan []float64
		edit := filepath.Join(mod, pkg, "zz_edit.go")
		for r := 0; r <= runs; r++ {
			os.WriteFile(edit, []byte(fmt.Sprintf("package %s\n\n// edit %d\n", pkg, r)), 0o644)
			p := timeVet(mod, "./"+pkg)
			os.WriteFile(edit, []byte(fmt.Sprintf("package %s\n\n// edit %d.\n", pkg, r)), 0o644)
			q := timeVet(mod, "-vettool="+bin, "./"+pkg)
			if r > 0 { // the first round fills the dependencies' caches
				plain = append(plain, p)
				pecan = append(pecan, q)
			}
		}
		pm, qm := median(plain), median(pecan)
		fmt.Printf("BENCH vet-fastpath pkg=%s plain_s=%.3f pecan_s=%.3f ratio=%.2f runs=%d\n", pkg, pm, qm, qm/pm, runs)
	}
	return nil
}

func runtimeGOROOT() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return string(bytesTrim(out))
}

func bytesTrim(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func timeVet(dir string, args ...string) float64 {
	cmd := exec.Command("go", append([]string{"vet"}, args...)...)
	cmd.Dir = dir
	start := time.Now()
	cmd.Run()
	return time.Since(start).Seconds()
}
