package depend

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestCASRound: a CAS from its own load whose failure comes back to the
// load carrying nothing (rTryLock's loop, Enqueue's re-call with the
// parameter whose address it stores on success) is a round; one whose
// loop counts its rounds, or whose result goes to its caller, is not.
// Ring[V].Enqueue is called only through an interface: its generic body
// must be indexed at all.
func TestCASRound(t *testing.T) {
	root, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax, Dir: root, Tests: true}, "./casround")
	if err != nil {
		t.Fatal(err)
	}
	x, err := Build(pkgs, root)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "casround/casround.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	// call is the site of the call of name in function fn (its parenthesis).
	call := func(fn, name string) string {
		in := false
		for i, l := range lines {
			if strings.HasPrefix(l, "func ") && strings.Contains(l, ") "+fn+"(") {
				in = true
				continue
			}
			if in && strings.Contains(l, name+"(") {
				return fmt.Sprintf("casround/casround.go:%d:%d", i+1, strings.Index(l, name+"(")+len(name)+1)
			}
		}
		t.Fatalf("no %s in %s", name, fn)
		return ""
	}
	for _, tc := range []struct {
		fn, load, cas string
		want          bool
	}{
		{"rTryLock", "LoadInt32", "CompareAndSwapInt32", true},
		{"Enqueue", "Load", "CompareAndSwap", true},
		{"counted", "LoadInt32", "CompareAndSwapInt32", false},
		{"tryInc", "LoadInt32", "CompareAndSwapInt32", false},
	} {
		if got := x.CASRound(call(tc.fn, tc.load), call(tc.fn, tc.cas)); got != tc.want {
			t.Errorf("%s: CASRound = %v, want %v", tc.fn, got, tc.want)
		}
	}
}
