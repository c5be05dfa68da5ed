package rt

import (
	"reflect"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestSites decodes the table that the instrumenter's siteTable writes
// (its TestSiteTable encodes these sites to this string) and registers
// it, quiet or not.
func TestSites(t *testing.T) {
	const table = "dir/a.go\n:3:7\tT.f\n:12:1\tchan struct{a int \"x\\ty\"}\nother/b.go:1:2\ttab\there\ndir/a.go.go:5:5\t\n"
	want := []Site{
		{Pos: "dir/a.go:3:7", Obj: "T.f"},
		{Pos: "dir/a.go:12:1", Obj: "chan struct{a int \"x\\ty\"}"},
		{Pos: "other/b.go:1:2", Obj: "tab\there"},
		{Pos: "dir/a.go.go:5:5", Obj: ""},
	}
	for _, quiet := range []bool{false, true} {
		mu.Lock()
		next := int32(len(regs))
		mu.Unlock()
		first := Sites(quiet, table)
		if first != next {
			t.Errorf("Sites returned %d, want the next free id %d", first, next)
		}
		mu.Lock()
		got := append([]Site(nil), regs[first:first+int32(len(want))]...)
		q := quietLocked(first, trace.Read)
		mu.Unlock()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("quiet %v: registered %q, want %q", quiet, got, want)
		}
		if q != quiet {
			t.Errorf("quiet %v: the sites' reads are quiet: %v", quiet, q)
		}
	}
	// A line starting with a tab is a loud site: in a quiet file, its
	// plain accesses are recorded all the same.
	for _, quiet := range []bool{false, true} {
		first := Sites(quiet, "dir/a.go\n:3:7\tT.f\n\t:4:1\tT.n\n")
		mu.Lock()
		got := append([]Site(nil), regs[first:first+2]...)
		q0, q1 := quietLocked(first, trace.Read), quietLocked(first+1, trace.Write)
		mu.Unlock()
		if want := []Site{{Pos: "dir/a.go:3:7", Obj: "T.f"}, {Pos: "dir/a.go:4:1", Obj: "T.n"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("quiet %v, a loud site: registered %q, want %q", quiet, got, want)
		}
		if q0 != quiet || q1 {
			t.Errorf("quiet %v, a loud site: quiet %v and %v, want %v and false", quiet, q0, q1, quiet)
		}
	}
	mu.Lock()
	next := int32(len(regs))
	mu.Unlock()
	if Sites(false, "\n") != next {
		t.Error("an empty table: wrong result")
	}
}
