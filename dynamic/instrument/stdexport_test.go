package instrument

import (
	"context"
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStdExportsOneGoList: a generated driver added to a package without
// test files (OrlovEvgeny/go-mcache's gcmap) imports fmt, os, reflect and
// testing, which no loaded package imports; its type-check finds them
// through the export-data fallback. That must cost one go list for all of
// them, not one per package: on main (go/importer's "gc" importer without
// a lookup, internal/exportdata's go list per package) this one runs
// five, fmt, os, reflect, testing and time, one after another (gcmap's
// check six: fmt, os, reflect, testing, sync and sync/atomic). The go commands the fallback runs are
// counted through a GOROOT whose bin/go logs each call and runs the real
// one (the fallback runs $GOROOT/bin/go, whatever PATH says); the driver
// must still type-check and join the overlay.
func TestStdExportsOneGoList(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list -export")
	}
	real := build.Default.GOROOT
	fake := t.TempDir()
	log := filepath.Join(fake, "calls.log")
	ents, err := os.ReadDir(real)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() == "bin" {
			continue
		}
		if err := os.Symlink(filepath.Join(real, e.Name()), filepath.Join(fake, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	script := "#!/bin/bash\nf='" + fake + "'\nr='" + real + "'\necho \"$*\" >> '" + log + "'\na=()\nfor x in \"$@\"; do a+=(\"${x/#\"$f\"/\"$r\"}\"); done\n" +
		"cd \"$r\" && GOROOT=\"$r\" PWD=\"$r\" exec \"$r/bin/go\" \"${a[@]}\"\n"
	if err := writeFile(filepath.Join(fake, "bin", "go"), []byte(script)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(fake, "bin", "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	build.Default.GOROOT = fake
	defer func() { build.Default.GOROOT = real }()

	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"b/b.go": "package b\n\nimport \"sync\"\n\ntype counter struct {\n\tmu sync.Mutex\n\tn  int\n}\n\nfunc (c *counter) inc() { c.mu.Lock(); c.n++; c.mu.Unlock() }\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	driver := "package b\n\nimport (\n\t\"fmt\"\n\tpecanvetos \"os\"\n\t\"reflect\"\n\t\"testing\"\n\t\"time\"\n)\n\n" +
		"func TestPecanvetDriver_X(t *testing.T) {\n\tc := &counter{}\n\tdone := make(chan bool)\n\tgo func() { c.inc(); done <- true }()\n\tc.inc()\n\tselect {\n\tcase <-done:\n\tcase <-time.After(time.Second):\n\t\tpecanvetos.Exit(2)\n\t}\n\t_ = fmt.Sprint(reflect.DeepEqual(c.n, 2))\n}\n"
	extra := map[string][]byte{filepath.Join(dir, "b", "zz_pecanvet_driver_test.go"): []byte(driver)}
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	if len(res.Notes) > 0 {
		t.Errorf("notes: %q", res.Notes)
	}
	ov := overlayOf(t, res)
	for f := range extra {
		if _, ok := ov.Replace[f]; !ok {
			t.Errorf("%s not in the overlay", f)
		}
	}
	b, _ := os.ReadFile(log)
	var lists []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(l, "list ") && strings.Contains(l, "-export") {
			lists = append(lists, l)
		}
	}
	if len(lists) != 1 {
		t.Errorf("%d go list -export runs for the fallback's standard packages, want 1:\n%s", len(lists), strings.Join(lists, "\n"))
	}
}
