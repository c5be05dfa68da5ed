package rt

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMmapOutNoReadAround: the trace's first mapping is advised random
// (VM_RAND_READ, "rr" in smaps), so that a store's page fault does not
// read the disk's readahead window of zeros around it (8 MB a file here);
// the next ones are not.
func TestMmapOutNoReadAround(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.trace")
	out, err := openOut(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.close()
	if _, err := out.Write(make([]byte, 4096)); err != nil {
		t.Fatal(err)
	}
	flags, ok := mappingFlags(t, path)
	if !ok {
		t.Fatalf("no mapping of %s in /proc/self/smaps", path)
	}
	if !strings.Contains(" "+flags+" ", " rr ") {
		t.Errorf("the trace's mapping has VmFlags %q, want rr (MADV_RANDOM)", flags)
	}
	// Past the first mapping, faults read around again: page by page, a
	// long trace costs twice as much.
	if _, err := out.Write(make([]byte, mmapFirst)); err != nil {
		t.Fatal(err)
	}
	flags, ok = mappingFlags(t, path)
	if !ok {
		t.Fatalf("no mapping of %s in /proc/self/smaps past the first", path)
	}
	if strings.Contains(" "+flags+" ", " rr ") {
		t.Errorf("the trace's mapping past the first has VmFlags %q, want no rr", flags)
	}
}

// mappingFlags returns the VmFlags of the mapping of path in
// /proc/self/smaps.
func mappingFlags(t *testing.T, path string) (string, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		l := sc.Text()
		if fs := strings.Fields(l); len(fs) >= 6 && strings.Contains(fs[0], "-") && !strings.HasSuffix(fs[0], ":") {
			in = fs[len(fs)-1] == path
			continue
		}
		if in {
			if rest, ok := strings.CutPrefix(l, "VmFlags:"); ok {
				return strings.TrimSpace(rest), true
			}
		}
	}
	return "", false
}
