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
		"trace":     "dynamic/trace",
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

// benchStaticVsVet times the static analyzers (go vet with pecanvet as
// the vet tool and -pecan.replay=false: what editors and golangci-lint
// run) beside go vet's own suite on the subjects module, alternating, a
// vet flag changed each round so that no result comes from go vet's cache
// (both recompute the dependencies' facts). The target is 1.5x.
func benchStaticVsVet(subjects string, runs int) error {
	tmp, err := os.MkdirTemp("", "pecanvet-staticbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "pecanvet")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/pecanvet").CombinedOutput(); err != nil {
		return fmt.Errorf("building pecanvet: %v\n%s", err, out)
	}
	dir, err := filepath.Abs(subjects)
	if err != nil {
		return err
	}
	var std, static []float64
	for r := 0; r <= runs; r++ {
		a := timeVet(dir, fmt.Sprintf("-printf.funcs=pecanvetBench%d", r), "./...")
		b := timeVet(dir, "-vettool="+bin, "-pecan.replay=false", "-pecan.stats="+filepath.Join(tmp, fmt.Sprintf("s%d", r)), "./...")
		if r > 0 { // the first round warms the build cache
			std = append(std, a)
			static = append(static, b)
		}
	}
	sm, pm := median(std), median(static)
	fmt.Printf("BENCH static-vs-vet module=%s vet_s=%.3f static_s=%.3f ratio=%.2f target=1.5 runs=%d\n", subjects, sm, pm, pm/sm, runs)
	return nil
}
