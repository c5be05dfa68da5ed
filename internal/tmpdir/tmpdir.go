// Package tmpdir makes pecanvet's temporary directories, and removes the
// ones that a killed pecanvet left behind.
//
// Every dynamic step works in temporary directories: instrumented
// sources, test binaries (tens of MB each), scratch traces, a private
// TMPDIR per test process. A pecanvet killed by SIGKILL, by a CI job's
// timeout or by the OOM killer runs no deferred cleanup, and those
// directories would stay in the temp dir for good (on one shared machine,
// a day of killed runs left 1 GB). So each directory made here holds a
// lock file, flock'ed by its process for as long as the directory is in
// use. The kernel drops that lock when the process dies, however it dies,
// and the first directory a later pecanvet makes sweeps the temp dir for
// directories whose lock it can take: their owners are gone.
//
// Only directories with the lock file are swept, so directories of an
// older pecanvet, or of anything else, are never touched; a directory
// whose lock file is younger than a few seconds is left alone, since its
// owner may not have locked it yet.
package tmpdir

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// LockName is the lock file each directory holds.
const LockName = ".pecanvet-lock"

// prefix is the name every swept directory starts with.
const prefix = "pecanvet-"

// youngest is the age below which a directory is never swept.
const youngest = 10 * time.Second

var (
	mu    sync.Mutex
	locks = map[string]*os.File{} // directory → its locked lock file
	swept sync.Once
)

// Make creates a new directory in the temp dir, named pattern as for
// os.MkdirTemp (pattern must start with "pecanvet-"), and locks it for
// this process until Remove. The first call of a process first removes
// the directories that dead pecanvet processes left.
func Make(pattern string) (string, error) {
	swept.Do(func() { Sweep(youngest) })
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", err
	}
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	if !tryLock(f) {
		// No lock on this system: the directory works, it is only not
		// swept if this process dies.
		f.Close()
		return dir, nil
	}
	mu.Lock()
	locks[dir] = f
	mu.Unlock()
	return dir, nil
}

// Remove removes dir and everything in it, and drops its lock.
func Remove(dir string) error {
	mu.Lock()
	f := locks[dir]
	delete(locks, dir)
	mu.Unlock()
	err := removeAll(dir)
	if f != nil {
		f.Close()
	}
	return err
}

// removeAll is os.RemoveAll, with the subtrees one and two levels down
// (a check's scratch: scratch/own/t<i>, one per test) removed by up to
// GOMAXPROCS goroutines at once. A check's scratch holds thousands of
// files (Go's race testdata: 2,629 files in 944 directories), and
// removing them one unlink after another was the check's last step, 2.2
// to 2.4 s of a 54 to 94 s check at load 35 to 40, with the other core
// idle on an idle machine.
func removeAll(dir string) error {
	workers := runtime.GOMAXPROCS(0)
	var subtrees []string
	if ents, err := os.ReadDir(dir); err == nil && workers > 1 {
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			if !e.IsDir() {
				continue // the lock file stays to the last
			}
			subs, err := os.ReadDir(p)
			if err != nil {
				continue
			}
			for _, s := range subs {
				subtrees = append(subtrees, filepath.Join(p, s.Name()))
			}
		}
	}
	if len(subtrees) >= 2*workers {
		var wg sync.WaitGroup
		next := make(chan string)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for p := range next {
					os.RemoveAll(p) // what is left fails the last RemoveAll
				}
			}()
		}
		for _, p := range subtrees {
			next <- p
		}
		close(next)
		wg.Wait()
	}
	return os.RemoveAll(dir)
}

// Sweep removes the directories named pecanvet-* in the temp dir that
// hold a lock file older than minAge whose lock no process holds, and
// returns how many it removed. Errors are ignored: a directory that
// cannot be read or removed stays, as it would have without the sweep.
func Sweep(minAge time.Duration) int {
	tmp := os.TempDir()
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		if abandoned(dir, minAge) {
			n++
		}
	}
	return n
}

// abandoned removes dir if its lock file is old enough and unlocked, and
// says whether it did.
func abandoned(dir string, minAge time.Duration) bool {
	lock := filepath.Join(dir, LockName)
	fi, err := os.Lstat(lock)
	if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < minAge {
		return false
	}
	f, err := os.OpenFile(lock, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if !tryLock(f) {
		return false // its owner lives
	}
	// Holding the lock, this is the only process removing it; the
	// owner is gone and will not come back to it.
	return os.RemoveAll(dir) == nil
}

// RemoveHeld removes every directory this process made with Make and has
// not removed, for a process about to exit without running its deferred
// removals (pecanvet's second interrupt).
func RemoveHeld() {
	mu.Lock()
	dirs := make([]string, 0, len(locks))
	for d := range locks {
		dirs = append(dirs, d)
	}
	mu.Unlock()
	for _, d := range dirs {
		Remove(d)
	}
}
