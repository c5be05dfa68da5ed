package testbin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBinCacheSkipsLink builds a package's tests twice into different
// outputs: the second build links nothing (the cache's file is the one
// the first wrote), and a build after a change leaves the first output
// as it was.
func TestBinCacheSkipsLink(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Setenv(EnvCache, t.TempDir())
	mod := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.21\n")
	write("m.go", "package m\n\nfunc F() int { return 1 }\n")
	write("m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) { F() }\n")
	ctx := context.Background()
	out := t.TempDir()
	build := func(name string) string {
		t.Helper()
		bin := filepath.Join(out, name)
		if err := testC(ctx, mod, "plain", "example.com/m", []string{"-vet=off"}, bin); err != nil {
			t.Fatal(err)
		}
		return bin
	}
	list := func(bin string) string {
		t.Helper()
		b, err := exec.Command(bin, "-test.list", ".").Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	first, second := build("a.test"), build("b.test")
	a, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.Stat(second)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(a, b) {
		t.Errorf("the second build linked again: %s and %s are different files", first, second)
	}
	write("m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) { F() }\n")
	third := build("c.test")
	if got := list(third); got != "TestTwo" {
		t.Errorf("after the change the binary lists %q, want TestTwo", got)
	}
	if got := list(first); got != "TestOne" {
		t.Errorf("the first build's binary lists %q after a later build, want TestOne", got)
	}
}

// TestPruneBinaries removes binaries unused for binMaxAge, except one
// whose lock another build holds.
func TestPruneBinaries(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-binMaxAge - time.Hour)
	mk := func(name string, used time.Time) string {
		p := filepath.Join(root, name+".test")
		if err := os.WriteFile(p, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, used, used); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale, held, fresh := mk("stale", old), mk("held", old), mk("fresh", time.Now())
	lock, err := os.OpenFile(held+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	pruneBinaries(root, "")
	for p, want := range map[string]bool{stale: false, held: true, fresh: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s kept: %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
