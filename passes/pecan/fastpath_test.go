package pecan

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestHiddenGoroutines: code whose only other goroutines come from the
// standard library is not taken for code without concurrency, and code
// that merely uses the same packages is.
func TestHiddenGoroutines(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"AfterFunc", `package p; import "time"; var x int; func F() { time.AfterFunc(time.Second, func() { x++ }) }`, true},
		{"context.AfterFunc", `package p; import "context"; func F(ctx context.Context, f func()) { context.AfterFunc(ctx, f) }`, true},
		{"exec writer", `package p; import ("os/exec"; "bytes"); func F() { var b bytes.Buffer; c := exec.Command("true"); c.Stdout = &b; c.Run() }`, true},
		{"exec literal", `package p; import ("os/exec"; "io"); func F(w io.Writer) *exec.Cmd { return &exec.Cmd{Path: "x", Stderr: w} }`, true},
		{"http handler", `package p; import "net/http"; func F() { http.HandleFunc("/", func(http.ResponseWriter, *http.Request) {}) }`, true},
		{"signal", `package p; import ("os"; "os/signal"); func F(c chan os.Signal) { signal.Notify(c) }`, true},
		{"finalizer", `package p; import "runtime"; type T struct{}; func F(t *T) { runtime.SetFinalizer(t, func(*T) {}) }`, true},
		{"parallel", `package p; import "testing"; func F(t *testing.T) { t.Parallel() }`, true},
		{"time only", `package p; import "time"; func F() time.Duration { time.Sleep(1); return time.Second }`, false},
		{"exec output", `package p; import "os/exec"; func F() ([]byte, error) { return exec.Command("true").Output() }`, false},
		{"testing only", `package p; import "testing"; func F(t *testing.T) { t.Log(1) }`, false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", c.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
		if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := usesHiddenGoroutines(&analysis.Pass{TypesInfo: info}); got != c.want {
			t.Errorf("%s: usesHiddenGoroutines = %v, want %v", c.name, got, c.want)
		}
		if got := fileHidesGoroutines(f); got != c.want {
			t.Errorf("%s: fileHidesGoroutines = %v, want %v", c.name, got, c.want)
		}
	}
}
