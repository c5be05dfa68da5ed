package rt

import (
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// Sites of testgo_test.go: ids 2300…
const (
	tTest int32 = 2300 + iota
	tRun
	tW
	tCtx
)

var _ = Register(tTest, []Site{
	{Pos: "t/x_test.go:5:6", Obj: "TestX"},
	{Pos: "t/x_test.go:8:4", Obj: "testing.T.Run"},
	{Pos: "t/x_test.go:9:2", Obj: "x"},
	{Pos: "t/x_test.go:10:2", Obj: "context.AfterFunc"},
})

// TestTestGoroutines: a test goroutine is forked by the main goroutine
// (TestStart), a subtest's by the goroutine calling t.Run, which joins it
// when it ended (RunAt). The test's own end and join come with its
// cleanups, after the trace here is read.
func TestTestGoroutines(t *testing.T) {
	read := recordTo(t)
	x := heap[int]()
	TestFork(t, tTest)
	TestFork(t, tTest) // a goroutine already known is not adopted again
	W(unsafe.Pointer(x), tW)
	ran := false
	RunAt(t, tRun)("sub", func(t *testing.T) {
		W(unsafe.Pointer(x), tW)
		ran = true
	})
	RunAt(t, tRun)("skipped", func(t *testing.T) {
		t.Skip("a skipped subtest still begins and ends")
	})
	R(unsafe.Pointer(x), tW)
	tr := read()
	consistent(t, tr)
	if !ran {
		t.Fatal("the subtest did not run")
	}
	got := strings.Join(lines(tr), "\n")
	want := strings.Join([]string{
		"g1 fork g1.1",
		"g1.1 begin",
		"g1.1 write x#1",
		"g1.1 fork g1.1.1",
		"g1.1.1 begin",
		"g1.1.1 write x#1",
		"g1.1.1 end",
		"g1.1 join g1.1.1",
		"g1.1 fork g1.1.2",
		"g1.1.2 begin",
		"g1.1.2 end",
		"g1.1 join g1.1.2",
		"g1.1 read x#1",
	}, "\n")
	if got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
}

// TestUninstrumentedRun: subtests that t.Run starts outside instrumented
// code (a testify suite's suite.Run; here the plain t.Run of this test)
// are forked by the goroutine calling t.Run, and a finished one ends and
// is joined before the next one's fork (adoptRun, and adopt for RunAt's
// "group") or the caller's next event (resumeRun): they ran one after
// the other. Parallel ones, paused in
// t.Parallel when the next begins, are joined only when their parent
// ends; one first seen after its t.Parallel ("r") stays a root.
func TestUninstrumentedRun(t *testing.T) {
	read := recordTo(t)
	x := heap[int]()
	TestFork(t, tTest)
	W(unsafe.Pointer(x), tW)
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) { W(unsafe.Pointer(x), tW) })
	}
	R(unsafe.Pointer(x), tW) // after b's end (resumeRun)
	t.Run("c", func(t *testing.T) { W(unsafe.Pointer(x), tW) })
	RunAt(t, tRun)("group", func(t *testing.T) {
		W(unsafe.Pointer(x), tW)
		for _, name := range []string{"p", "q"} {
			t.Run(name, func(t *testing.T) {
				R(unsafe.Pointer(x), tW)
				t.Parallel()
				W(unsafe.Pointer(x), tW)
			})
		}
		t.Run("r", func(t *testing.T) {
			t.Parallel()
			W(unsafe.Pointer(x), tW)
		})
	})
	R(unsafe.Pointer(x), tW)
	tr := read()
	consistent(t, tr)
	got := lines(tr)
	// The parallel subtests run in any order after the group's function.
	var par []string
	for i := 0; i < len(got); i++ {
		if l := got[i]; strings.HasPrefix(l, "g1.1.4.1 write") || strings.HasPrefix(l, "g1.1.4.2 write") || strings.HasPrefix(l, "g2 ") {
			par = append(par, l)
			got = append(got[:i], got[i+1:]...)
			i--
		}
	}
	slices.Sort(par)
	want := []string{
		"g1 fork g1.1",
		"g1.1 begin",
		"g1.1 write x#1",
		"g1.1 fork g1.1.1",
		"g1.1.1 begin",
		"g1.1.1 write x#1",
		"g1.1.1 end",
		"g1.1 join g1.1.1",
		"g1.1 fork g1.1.2",
		"g1.1.2 begin",
		"g1.1.2 write x#1",
		"g1.1.2 end", // before g1.1's next event
		"g1.1 join g1.1.2",
		"g1.1 read x#1",
		"g1.1 fork g1.1.3",
		"g1.1.3 begin",
		"g1.1.3 write x#1",
		"g1.1.3 end", // before RunAt's fork
		"g1.1 join g1.1.3",
		"g1.1 fork g1.1.4",
		"g1.1.4 begin",
		"g1.1.4 write x#1",
		"g1.1.4 fork g1.1.4.1",
		"g1.1.4.1 begin",
		"g1.1.4.1 read x#1",
		"g1.1.4 fork g1.1.4.2", // p paused in t.Parallel: not joined
		"g1.1.4.2 begin",
		"g1.1.4.2 read x#1",
		"g1.1.4.1 end", // the group's end: they have finished
		"g1.1.4 join g1.1.4.1",
		"g1.1.4.2 end",
		"g1.1.4 join g1.1.4.2",
		"g1.1.4 end",
		"g1.1 join g1.1.4",
		"g1.1 read x#1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantPar := []string{"g1.1.4.1 write x#1", "g1.1.4.2 write x#1", "g2 write x#1"}
	if !slices.Equal(par, wantPar) {
		t.Errorf("parallel subtests' events %q, want %q", par, wantPar)
	}
}
