package testbin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// EnvCache names pecanvet's cache directory (default: pecanvet/ under
// the user cache dir), as for the instrumenter's runtime.
const EnvCache = "PECANVET_CACHE"

// testC runs `go test -c` for pkg with args (flags, without -o) and puts
// the binary at out.
//
// The go command caches compiled packages but not linked binaries: it
// skips the link only when the -o target already holds the binary it
// would write (same build ID). Into a new temp path every check, each
// binary was linked again, unchanged code or not: 0.35-0.5 s of CPU per
// binary on small modules (rubyist/circuitbreaker, warm: instrumented
// 0.53 s, plain 0.59 s, -race 0.85 s of a 4.4 s check; 0.17 s each with
// the link skipped). So the go command writes into a stable path per
// package and mode in pecanvet's cache (binCache), and out is a hard
// link to it (a copy across file systems): a later build replaces the
// cache's file by a rename, so out keeps the binary this check built.
// The instrumented source is the same from run to run for the same
// code, so its binary is linked again only when the code changed.
// Without a usable cache the binary is built at out directly.
func testC(ctx context.Context, dir, mode, pkg string, args []string, out string) error {
	entry, unlock := binCache(dir, mode, pkg, args)
	if entry == "" {
		return goCmd(ctx, dir, append(append([]string{"test", "-c", "-o", out}, args...), pkg)...)
	}
	defer unlock()
	if err := goCmd(ctx, dir, append(append([]string{"test", "-c", "-o", entry}, args...), pkg)...); err != nil {
		return err
	}
	now := time.Now()
	os.Chtimes(entry, now, now) // in use: see pruneBinaries
	if err := os.Link(entry, out); err == nil {
		return nil
	}
	return copyFile(entry, out, 0o755)
}

// binCache returns the cache path for the test binary of pkg built in
// mode with args, locked against other pecanvet processes building it
// (pecanvet's own tests check one package from several processes at
// once), and the function that unlocks it; "" if there is no usable
// cache. The key leaves out -overlay, whose path is new every check: the
// go command compares the binary's build ID, which covers the overlay's
// content, with what it would build.
func binCache(dir, mode, pkg string, args []string) (string, func()) {
	root := os.Getenv(EnvCache)
	if root == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", nil
		}
		root = filepath.Join(c, "pecanvet")
	}
	root = filepath.Join(root, "bin")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", mode, abs, pkg, os.Getenv("GOFLAGS"))
	for _, a := range args {
		if !strings.HasPrefix(a, "-overlay=") {
			fmt.Fprintf(h, "\x00%s", a)
		}
	}
	entry := filepath.Join(root, hex.EncodeToString(h.Sum(nil))[:24]+".test")
	lock, err := os.OpenFile(entry+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", nil
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		lock.Close()
		return "", nil
	}
	pruneBinaries(root, entry)
	return entry, func() {
		syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
		lock.Close()
	}
}

// Bounds of the binary cache: a binary unused for binMaxAge goes, and the
// least recently used go while the cache holds more than binMaxBytes
// (a test binary is 5-30 MB; pecanvet's own tests check packages in temp
// dirs, each a new entry).
const (
	binMaxAge   = 14 * 24 * time.Hour
	binMaxBytes = 1 << 30
)

// pruneBinaries removes the cached binaries of root beyond its bounds,
// but not keep (the entry about to be built), at most once a minute.
func pruneBinaries(root, keep string) {
	mark := filepath.Join(root, "pruned")
	if info, err := os.Stat(mark); err == nil && time.Since(info.ModTime()) < time.Minute {
		return
	}
	if f, err := os.Create(mark); err == nil {
		f.Close()
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	type bin struct {
		path string
		size int64
		used time.Time
	}
	var bins []bin
	var total int64
	now := time.Now()
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || !strings.HasSuffix(e.Name(), ".test") {
			continue
		}
		p := filepath.Join(root, e.Name())
		if p == keep {
			continue
		}
		if now.Sub(info.ModTime()) > binMaxAge {
			removeUnlocked(p)
			continue
		}
		bins = append(bins, bin{p, info.Size(), info.ModTime()})
		total += info.Size()
	}
	sort.Slice(bins, func(i, j int) bool { return bins[i].used.Before(bins[j].used) })
	for _, b := range bins {
		if total <= binMaxBytes {
			break
		}
		if removeUnlocked(b.path) {
			total -= b.size
		}
	}
}

// removeUnlocked removes a cached binary and its lock file unless another
// process holds the lock (it is building the binary, or linking it to its
// check's temp dir). A check using the binary holds its own link (or
// copy).
func removeUnlocked(path string) bool {
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return false
	}
	defer lock.Close()
	if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	os.Remove(path)
	os.Remove(path + ".lock")
	return true
}

// copyFile copies src to dst, a file with permissions perm (an
// executable's, a mirrored data file's).
func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
