package rt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestVerdictWrittenInPlace: a replay's provisional verdicts and its final
// one overwrite the verdict file in place (the same inode: no temporary
// file created and none deleted per write), and the file reads as the
// last verdict written, a shorter one after a longer one included; a
// verdict longer than a page is still written whole, by a rename.
func TestVerdictWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "verdict.json")
	ino := func() uint64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	read := func() Verdict {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var v Verdict
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("verdict file %q: %v", data, err)
		}
		return v
	}
	r := &replayer{path: path}
	r.write(Verdict{Verdict: "running", Step: 2, Steps: 9, Message: "the schedule was at step 2, a long while before its end"})
	first := ino()
	// (Compared after each write: a file created while the first still
	// exists cannot have its inode, and a later one may get it back.)
	r.write(Verdict{Verdict: "running", Step: 5, Steps: 9, Message: "step 5"})
	if v := read(); v.Verdict != "running" || v.Step != 5 || v.Message != "step 5" {
		t.Errorf("after the second write: %+v", v)
	}
	if got := ino(); got != first {
		t.Errorf("the verdict file was replaced (inode %d, then %d): a file created per write", first, got)
	}
	r.write(Verdict{Verdict: "reproduced", Step: 9, Steps: 9})
	if v := read(); v.Verdict != "reproduced" || v.Step != 9 || v.Message != "" {
		t.Errorf("after the final write: %+v", v)
	}
	if got := ino(); got != first {
		t.Errorf("the verdict file was replaced (inode %d, then %d): a file created per write", first, got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files left: %d, want the verdict only", len(ents))
	}
	long := strings.Repeat("x", 2*verdictInPlace)
	r.write(Verdict{Verdict: "deadlock", Message: long})
	if v := read(); v.Verdict != "deadlock" || v.Message != long {
		t.Errorf("a long verdict read back as %q, %d bytes of message", v.Verdict, len(v.Message))
	}
	r.write(Verdict{Verdict: "diverged", Step: 3})
	if v := read(); v.Verdict != "diverged" || v.Step != 3 {
		t.Errorf("after the long verdict: %+v", v)
	}
}
