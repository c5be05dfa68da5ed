package driver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupEndsOtherValues: a client's test starts a server on a fixed
// address and stops it after its calls. The drivers of the client copy
// the server's start with the setup, and each runs the setup once per
// order: they stop the server too, or the second setup cannot listen and
// the driver fails before its calls.
func TestSetupEndsOtherValues(t *testing.T) {
	res := generateIn(t, "drvserver")
	var src []byte
	for _, b := range res.Files {
		src = b
	}
	var tests []string
	for _, d := range res.Drivers["subjects/drvserver"] {
		if strings.Contains(d.Test, "_Client_") {
			tests = append(tests, d.Test)
		}
	}
	if len(tests) == 0 {
		t.Fatalf("no driver of Client (drivers %+v, notes %q)", res.Drivers["subjects/drvserver"], res.Notes)
	}
	if !strings.Contains(string(src), "srv.Stop()") {
		t.Errorf("the drivers do not stop the server their setup starts:\n%s", src)
	}
	if testing.Short() {
		return
	}
	dir := t.TempDir()
	from := filepath.Join("testdata", "subjects", "drvserver")
	for _, name := range []string{"server.go", "server_test.go"} {
		b, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module subjects/drvserver\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, File), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-v", "-count=1", "-run", "^("+strings.Join(tests, "|")+")$", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the drivers failed (%v):\n%s", err, out)
	}
	for _, test := range tests {
		if !strings.Contains(string(out), "--- PASS: "+test) {
			t.Errorf("%s did not pass:\n%s", test, out)
		}
	}
}
