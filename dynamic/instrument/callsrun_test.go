package instrument

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestCallsRun: a TestMain that calls m.Run ends the trace by its own
// deferred rt.Finish; one that hands m on (goleak.VerifyTestMain(m)) may
// exit uninstrumented, and gets rt.EndWithTest.
func TestCallsRun(t *testing.T) {
	for src, want := range map[string]bool{
		"func TestMain(m *testing.M) { os.Exit(m.Run()) }":                                        true,
		"func TestMain(m *testing.M) { code := m.Run(); teardown(); os.Exit(code) }":              true,
		"func TestMain(m *testing.M) { if setup() { os.Exit(func() int { return m.Run() }()) } }": true,
		"func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }":                                false,
		"func TestMain(m *testing.M) { os.Exit(testscript.RunMain(m, nil)) }":                     false,
		"func TestMain(m *testing.M) { var r runner; r.Run(); helper(m) }":                        false,
		"func TestMain(_ *testing.M) {}":                                                          false,
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", "package x\n\n"+src+"\n", 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := callsRun(f.Decls[0].(*ast.FuncDecl)); got != want {
			t.Errorf("callsRun(%s) = %v, want %v", src, got, want)
		}
	}
}
