package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/static/load"
)

// casroundSource loads static/depend's casround testdata, the code the
// CAS-round tests' findings name, and returns it with its site finder:
// site(fn, text, n, off) is the n-th occurrence of text in method fn, at
// its column plus off; with text "", fn's own name in its declaration.
func casroundSource(t *testing.T) (*load.Packages, func(fn, text string, n, off int) string) {
	t.Helper()
	loaded, lines := loadDependSrc(t, "casround")
	site := func(fn, text string, n, off int) string {
		t.Helper()
		in := false
		for i, l := range lines {
			if strings.HasPrefix(l, "func ") {
				in = strings.Contains(l, ") "+fn+"(")
				if in && text == "" {
					return fmt.Sprintf("casround/casround.go:%d:%d", i+1, strings.Index(l, ") "+fn+"(")+3)
				}
				continue
			}
			if in && strings.Contains(l, text) {
				if n--; n == 0 {
					return fmt.Sprintf("casround/casround.go:%d:%d", i+1, strings.Index(l, text)+1+off)
				}
			}
		}
		t.Fatalf("no %s in %s", text, fn)
		return ""
	}
	return loaded, site
}
