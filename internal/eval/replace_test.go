package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDropOutsideReplaces(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "internal", "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "internal", "tools", "go.mod"), []byte("module example.com/tools\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gomod := `module example.com/proc

go 1.24

require (
	example.com/client v1.2.0
	example.com/tools v0.1.0
	example.com/fork v1.0.0
)

replace example.com/client => ../client

replace example.com/tools => ./internal/tools

replace example.com/fork => example.com/fork2 v1.0.1

replace example.com/abs => /elsewhere/abs

replace example.com/proc/metric => ./metric
`
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	note, err := dropOutsideReplaces(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, gone := range []string{"../client", "/elsewhere/abs", "./metric"} {
		if strings.Contains(s, gone) {
			t.Errorf("go.mod still replaces with %s:\n%s", gone, s)
		}
		if !strings.Contains(note, gone) {
			t.Errorf("note %q does not name %s", note, gone)
		}
	}
	for _, kept := range []string{"./internal/tools", "example.com/fork2 v1.0.1", "example.com/client v1.2.0"} {
		if !strings.Contains(s, kept) {
			t.Errorf("go.mod lost %q:\n%s", kept, s)
		}
	}

	// Nothing to drop: the file is left as it is, and no note.
	again, err := dropOutsideReplaces(dir)
	if err != nil || again != "" {
		t.Errorf("second pass: %q, %v; want nothing", again, err)
	}
	if missing, err := dropOutsideReplaces(t.TempDir()); err != nil || missing != "" {
		t.Errorf("no go.mod: %q, %v; want nothing", missing, err)
	}
}
