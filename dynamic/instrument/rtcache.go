package instrument

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
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
	root := os.Getenv("PECANVET_CACHE")
	if root == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", false
		}
		root = filepath.Join(c, "pecanvet")
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
		case strings.HasPrefix(name, "runtime-"):
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
