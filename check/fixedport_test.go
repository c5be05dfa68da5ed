package check_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// fixedPort is the port TestFixedPortRunsAlone's subject binds; the test
// skips when something else holds it.
const fixedPort = 47614

// checkShared checks a module of 8 tests that each hold one resource
// that every process of the package shares (hold, the subject's function
// of t) and then race on a counter, and returns the report.
func checkShared(t *testing.T, imports, hold string) *check.Report {
	t.Helper()
	dir := t.TempDir()
	var tests strings.Builder
	fmt.Fprintf(&tests, `package fixed

import (
	"testing"
	"time"
%s)

%s

func use(t *testing.T) {
	release := hold(t)
	time.Sleep(150 * time.Millisecond)
	release()
	done := make(chan bool)
	go func() { Racy(); done <- true }()
	Racy()
	<-done
}
`, imports, hold)
	for i := range 8 {
		fmt.Fprintf(&tests, "\nfunc TestHold%d(t *testing.T) { use(t) }\n", i)
	}
	for name, src := range map[string]string{
		"go.mod":        "module fixed\n\ngo 1.22\n",
		"fixed.go":      "package fixed\n\nvar n int\n\n// Racy adds 1 to n unguarded.\nfunc Racy() { n++ }\n",
		"fixed_test.go": tests.String(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Perturb: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rep.Notes {
		if strings.Contains(n.Text, "fails") {
			t.Errorf("note: %s %s", n.Test, n.Text)
		}
	}
	if len(rep.Findings) == 0 {
		t.Errorf("the race on n was not reported")
	}
	return rep
}

// TestFixedPortRunsAlone: tests that each bind one fixed port while they
// run pass in a normal run, one after the other; recorded and replayed in
// parallel processes, one of two binds failed ("address already in
// use"): the test "failed only under instrumentation", or its replay
// diverged. A process whose test failed so beside others of its package
// runs again alone, and so do that test's later processes
// (testbin.SetAlone).
func TestFixedPortRunsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", fixedPort))
	if err != nil {
		t.Skipf("port %d taken: %v", fixedPort, err)
	}
	l.Close()
	checkShared(t, "\t\"net\"\n", fmt.Sprintf(`func hold(t *testing.T) func() {
	l, err := net.Listen("tcp", "127.0.0.1:%d")
	if err != nil {
		t.Fatal(err)
	}
	return func() { l.Close() }
}`, fixedPort))
}

// TestFixedPathOutsideRunsAlone: tests that each keep a file at one fixed
// path outside their package's directory fail, recorded beside each
// other, with no collision's message (the file exists); a mirror of the
// package's directory does not separate them. A test that failed only
// under instrumentation is recorded again alone, and passing so, its
// replays run alone too.
func TestFixedPathOutsideRunsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	path := filepath.Join(t.TempDir(), "shared.lock")
	checkShared(t, "\t\"os\"\n", fmt.Sprintf(`func hold(t *testing.T) func() {
	f, err := os.OpenFile(%q, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	return func() { os.Remove(%[1]q) }
}`, path))
}
