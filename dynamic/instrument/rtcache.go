package instrument

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// runtimeCacheDir returns a directory holding files (slash path → content),
// shared by every instrumented build with the same runtime. The go command
// keys a compiled package by its directory, so a runtime written into each
// build's own temp dir would be compiled again for every package checked;
// a content-addressed directory is compiled once and then comes from the
// build cache. It lives in pecanvet's own cache ($PECANVET_CACHE, or
// pecanvet/ under the user cache dir), never in the user's tree, and is
// written to a sibling and renamed, so a reader never sees half of it.
// ok is false when no cache directory can be used; the caller then writes
// the runtime into its temp dir.
func runtimeCacheDir(files map[string][]byte) (dir string, ok bool) {
	root, ok := cacheRoot()
	if !ok {
		return "", false
	}
	h := sha256.New()
	for _, k := range sortedKeys(files) {
		fmt.Fprintf(h, "%s %d\n", k, len(files[k]))
		h.Write(files[k])
	}
	dir = filepath.Join(root, "runtime-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		now := time.Now()
		os.Chtimes(dir, now, now) // in use: see pruneRuntimes
		return dir, true
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", false
	}
	pruneRuntimes(root)
	tmp, err := os.MkdirTemp(root, "new-")
	if err != nil {
		return "", false
	}
	for _, k := range sortedKeys(files) {
		if err := writeFile(filepath.Join(tmp, filepath.FromSlash(k)), files[k]); err != nil {
			os.RemoveAll(tmp)
			return "", false
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process got there first: use its copy.
		os.RemoveAll(tmp)
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			return "", false
		}
	}
	return dir, true
}

// runtimeMaxAge is how long a cached runtime nobody used is kept: each
// pecanvet version (and each go line below go1.21) has its own.
const runtimeMaxAge = 14 * 24 * time.Hour

// pruneRuntimes removes the cached runtimes of root unused for
// runtimeMaxAge, and leftovers of writes that did not finish (new-*) older
// than a day. A runtime in use is touched on each use.
func pruneRuntimes(root string) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	now := time.Now()
	for _, e := range ents {
		name := e.Name()
		maxAge := runtimeMaxAge
		switch {
		case strings.HasPrefix(name, "runtime-"), strings.HasPrefix(name, "dep-"):
		case strings.HasPrefix(name, "new-"):
			maxAge = 24 * time.Hour
		default:
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > maxAge {
			os.RemoveAll(filepath.Join(root, name))
		}
	}
}

// depModuleDir returns a directory that stands in for module m, from the
// module cache, with the rewritten files (slash path relative to m.Dir →
// content) in place of its own (moduleDeps' others). The go command refuses an
// overlay of a file in the module cache, so the overlaid go.mod replaces
// the module with this directory instead. Its other files are hard links
// to the module cache's (copies across file systems): a whole copy, so
// that every package of m the build imports is there. Like the runtime,
// it is content-addressed in pecanvet's cache, so its packages are
// compiled once and then come from the build cache; without a cache
// directory it is written under tmp (compiled on every check).
func depModuleDir(m *packages.Module, files map[string][]byte, tmp string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s@%s\n", m.Path, m.Version)
	for _, k := range sortedKeys(files) {
		fmt.Fprintf(h, "%s %d\n", k, len(files[k]))
		h.Write(files[k])
	}
	name := "dep-" + hex.EncodeToString(h.Sum(nil))[:16]
	root, ok := cacheRoot()
	if ok {
		dir := filepath.Join(root, name)
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			now := time.Now()
			os.Chtimes(dir, now, now) // in use: see pruneRuntimes
			return dir, nil
		}
		if os.MkdirAll(root, 0o755) != nil {
			ok = false
		}
	}
	if !ok {
		dir := filepath.Join(tmp, name)
		return dir, linkModule(m, files, dir)
	}
	pruneRuntimes(root)
	staging, err := os.MkdirTemp(root, "new-")
	if err != nil {
		return "", err
	}
	if err := linkModule(m, files, staging); err != nil {
		os.RemoveAll(staging)
		return "", err
	}
	dir := filepath.Join(root, name)
	if err := os.Rename(staging, dir); err != nil {
		// Another process got there first: use its copy.
		os.RemoveAll(staging)
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// linkModule fills dir with m's files, linked or copied, the rewritten
// ones written, and a go.mod (m's own, or a module line for a module that
// has none: a replacement directory needs one).
func linkModule(m *packages.Module, files map[string][]byte, dir string) error {
	err := filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(m.Dir, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if b, ok := files[filepath.ToSlash(rel)]; ok {
			return os.WriteFile(to, b, 0o644)
		}
		if os.Link(p, to) == nil {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+m.Path+"\n"), 0o644)
	}
	return nil
}

// cacheRoot is pecanvet's cache directory: $PECANVET_CACHE, or pecanvet/
// under the user cache dir.
func cacheRoot() (string, bool) {
	if root := os.Getenv("PECANVET_CACHE"); root != "" {
		return root, true
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(c, "pecanvet"), true
}
