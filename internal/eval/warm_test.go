package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestNotImporting: an import that depends on the module under test (a
// test helper module importing it back, as github.com/juju/testing
// imports github.com/juju/clock) is left out of go vet's warm-up, and the
// others stay.
func TestNotImporting(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("m/go.mod", "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n")
	write("m/m.go", "package m\n")
	write("m/m_test.go", "package m\n\nimport (\n\t_ \"example.com/dep/back\"\n\t_ \"example.com/dep/plain\"\n)\n")
	write("dep/go.mod", "module example.com/dep\n\ngo 1.22\n\nrequire example.com/m v0.0.0\n\nreplace example.com/m => ../m\n")
	write("dep/back/back.go", "package back\n\nimport _ \"example.com/m\"\n")
	write("dep/plain/plain.go", "package plain\n")
	c := &config{stepTimeout: time.Minute, env: []string{"GOFLAGS=-mod=mod", "GOPROXY=off"}}
	got := notImporting(context.Background(), c, filepath.Join(root, "m"), []string{"example.com/dep/back", "example.com/dep/plain"}, "example.com/m")
	if want := []string{"example.com/dep/plain"}; !slices.Equal(got, want) {
		t.Errorf("notImporting = %q, want %q", got, want)
	}
}
