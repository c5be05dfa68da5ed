package testbin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/instrument"
)

// TestPlainBuildTakesDrivers: the plain and -race builds take the
// generated drivers (Options.Extra) as the instrumented build does. b
// has no test file of its own: without them go test -c wrote no binary
// there, and the plain build failed with "no such file" (paho's paho/log,
// whose only tests are drivers: a wrong "fails instrumented (the
// uninstrumented build failed …)" note); a's plain binary had no driver
// test to run (a failed driver "passed in a normal run"), nor had the
// -race binary.
func TestPlainBuildTakesDrivers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	driver := "package %s\n\nimport \"testing\"\n\nfunc TestPecanvetDriver_X(t *testing.T) { (&counter{}).inc() }\n"
	for name, src := range map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\ntype counter struct{ n int }\n\nfunc (c *counter) inc() { c.n++ }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestInc(t *testing.T) { (&counter{}).inc() }\n",
		"b/b.go":      "package b\n\ntype counter struct{ n int }\n\nfunc (c *counter) inc() { c.n++ }\n",
	} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	extra := map[string][]byte{
		filepath.Join(dir, "a", "zz_pecanvet_driver_test.go"): []byte(strings.ReplaceAll(driver, "%s", "a")),
		filepath.Join(dir, "b", "zz_pecanvet_driver_test.go"): []byte(strings.ReplaceAll(driver, "%s", "b")),
	}
	ctx := context.Background()
	inst, err := instrument.Instrument(ctx, instrument.Options{Dir: dir, Patterns: []string{"./..."}, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvCache, t.TempDir())
	b, err := New(ctx, inst, Options{Dir: dir, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, pkg := range []string{"example.com/m/a", "example.com/m/b"} {
		bin, err := b.PlainBinary(ctx, pkg)
		if err != nil {
			t.Errorf("%s: the plain build: %v", pkg, err)
			continue
		}
		out, err := exec.Command(bin, "-test.list", ".").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "TestPecanvetDriver_X") {
			t.Errorf("%s: the plain binary lists no driver: %v\n%s", pkg, err, out)
		}
		if v := RunTest(ctx, bin, b.Dirs[pkg], "TestPecanvetDriver_X", nil, time.Minute); !v.Passed {
			t.Errorf("%s: the driver does not pass in the plain binary:\n%s", pkg, v.Output)
		}
	}
	// The race detector confirms a driver's races (check/unordered.go)
	// with the -race binary: it needs the driver too.
	bin, err := b.RaceBinary(ctx, "example.com/m/b")
	if err != nil {
		t.Fatalf("the -race build: %v", err)
	}
	if out, err := exec.Command(bin, "-test.list", ".").CombinedOutput(); err != nil || !strings.Contains(string(out), "TestPecanvetDriver_X") {
		t.Errorf("the -race binary lists no driver: %v\n%s", err, out)
	}
}
