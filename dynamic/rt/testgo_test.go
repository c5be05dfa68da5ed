package rt

import (
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
