package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// dropOutsideReplaces removes the go.mod's replace directives that point
// to a directory outside the module's copy. A module of a monorepo
// (OpenTelemetry's processors, say) replaces its siblings with ../x
// paths that exist in its repository but not beside the zip's copy, so
// the go command fails to load anything ("reading ../x/go.mod"). A user
// who requires the module never sees its replace directives either: the
// copy is built as they build it, with the required versions from the
// proxy. A nested module of the repository (otel/sdk's ./metric) is
// left out of the zip (a directory with a go.mod is another module), so
// a replace to a directory inside the copy that holds no go.mod goes
// too. It returns what it removed, for the section's note.
func dropOutsideReplaces(dir string) (string, error) {
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		if os.IsNotExist(err) {
			return "", nil
		}
		return "", err
	}
	f, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return "", fmt.Errorf("%s: %v", gomod, err)
	}
	var dropped []string
	for _, r := range f.Replace {
		if r.New.Version != "" {
			continue // a module version, from the proxy
		}
		target := r.New.Path
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		rel, err := filepath.Rel(dir, target)
		inside := err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
		if _, err := os.Stat(filepath.Join(target, "go.mod")); inside && err == nil {
			continue // a module inside the copy: it is there
		}
		dropped = append(dropped, r.Old.Path+" => "+r.New.Path)
		if err := f.DropReplace(r.Old.Path, r.Old.Version); err != nil {
			return "", err
		}
	}
	if len(dropped) == 0 {
		return "", nil
	}
	f.Cleanup()
	out, err := f.Format()
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(gomod, out, 0o644); err != nil {
		return "", err
	}
	return "replace directives to directories outside the module, or to nested modules its zip leaves out, removed from the copy: " + strings.Join(dropped, ", "), nil
}
