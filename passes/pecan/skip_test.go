package pecan

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/instrument"
	"github.com/pecanvet/pecanvet/dynamic/testbin"
)

// TestSkipError: the hint that goes with a skipped dynamic check comes from
// the cause's type, wherever it is wrapped, and the cause stays reachable.
func TestSkipError(t *testing.T) {
	cgoLoad := &instrument.LoadError{Messages: []string{`cgo: C compiler "gcc" not found`, "c.go:4:8: could not import C (no metadata for C)"}}
	typeLoad := &instrument.LoadError{Messages: []string{"x.go:3:23: undefined: undefined"}}
	cgoBuild := &testbin.BuildError{Package: "example.com/c", Mode: "instrumented", Err: errors.New(`# runtime/cgo
cgo: C compiler "gcc" not found`)}
	plainBuild := &testbin.BuildError{Package: "example.com/c", Mode: "instrumented", Err: errors.New("x_test.go:5:2: undefined: y")}
	for _, tc := range []struct {
		err  error
		hint string
	}{
		{cgoLoad, "cgo needs a C compiler"},
		{fmt.Errorf("instrumenting: %w", cgoLoad), "cgo needs a C compiler"},
		{typeLoad, "the package or its tests do not compile; `go vet example.com/c`"},
		{cgoBuild, "cgo needs a C compiler"},
		{plainBuild, "`go test -c -o /dev/null` in /dir"},
		{errors.New("something else"), "`go test -c -o /dev/null` in /dir"},
	} {
		err := skipError("example.com/c", "/dir", tc.err)
		if !strings.HasPrefix(err.Error(), "dynamic check skipped: "+tc.err.Error()) || !strings.Contains(err.Error(), "\n("+tc.hint) {
			t.Errorf("skipError(%q) = %q, want the cause and the hint %q", tc.err, err, tc.hint)
		}
		if !errors.Is(err, tc.err) {
			t.Errorf("skipError(%q) does not wrap its cause", tc.err)
		}
	}
}
