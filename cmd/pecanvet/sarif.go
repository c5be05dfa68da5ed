package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/internal/sarif"
	"github.com/pecanvet/pecanvet/pattern"
)

// sarifFlag is -sarif (standard output) or -sarif=FILE.
type sarifFlag struct {
	set  bool
	path string // "" for standard output
}

func (s *sarifFlag) String() string {
	if s == nil || !s.set {
		return ""
	}
	if s.path == "" {
		return "true"
	}
	return s.path
}

func (s *sarifFlag) Set(v string) error {
	switch v {
	case "true", "-":
		s.set, s.path = true, ""
	case "false":
		s.set, s.path = false, ""
	case "":
		return fmt.Errorf("empty file name")
	default:
		s.set, s.path = true, v
	}
	return nil
}

func (s *sarifFlag) IsBoolFlag() bool { return true }

// writeSARIF writes the check's log to path (atomically) or, if path is
// "", to stdout. Sites are relative to the module holding dir; URIs to
// srcRoot, by default the git repository around that module.
func writeSARIF(rep *check.Report, pats []*pattern.Pattern, dir, srcRoot, path string, stdout io.Writer) error {
	mod := findUp(dir, "go.mod")
	if mod == "" {
		return fmt.Errorf("-sarif: no go.mod in %s or above", dir)
	}
	if srcRoot == "" {
		if srcRoot = findUp(mod, ".git"); srcRoot == "" {
			srcRoot = mod
		}
	}
	root, err := filepath.Abs(srcRoot)
	if err != nil {
		return err
	}
	opt := sarif.Options{ModuleRoot: mod, SrcRoot: root, Patterns: pats}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		opt.Version = bi.Main.Version
	}
	log := sarif.New(rep, opt)
	if path == "" {
		return log.Encode(stdout)
	}
	if err := log.WriteFile(path); err != nil {
		return fmt.Errorf("-sarif: %v", err)
	}
	return nil
}

// findUp returns the nearest directory from dir upwards holding name, or "".
func findUp(dir, name string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
