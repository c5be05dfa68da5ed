package depend

import (
	"fmt"
	"strings"
	"testing"
)

// TestJudgeFetchRechecked: marusama/semaphore's :93 asv-11 (issue 26):
// Acquire loads a full state (a), a whole Release runs (its CAS and its
// swap of the channel), then Acquire fetches the new channel (b): "the
// value read at a decides the read at b". Sem (marusama's) and Eq (the
// re-check written ==) use the channel only after a re-load, after the
// fetch, found the state equal to a's: not judged (fetchRechecked).
// Plain (recheckwait's lost wake-up, no re-load), Early (the re-load
// before the fetch), Masked (only the count compared) and Both (the
// channel waited on when the state differs too) stay judged.
func TestJudgeFetchRechecked(t *testing.T) {
	x, lines := buildShapes(t, "refetch")
	// site: the n-th text in method fn of typ, at its column plus off;
	// text "": the method's name in its declaration.
	site := func(typ, fn, text string, n, off int) string {
		in := false
		decl := "*" + typ + ") " + fn + "("
		for i, l := range lines {
			if strings.HasPrefix(l, "func ") {
				in = strings.Contains(l, decl)
				if in && text == "" {
					return fmt.Sprintf("refetch/refetch.go:%d:%d", i+1, strings.Index(l, decl)+len(typ)+4)
				}
				continue
			}
			if in && strings.Contains(l, text) {
				if n--; n == 0 {
					return fmt.Sprintf("refetch/refetch.go:%d:%d", i+1, strings.Index(l, text)+1+off)
				}
			}
		}
		t.Fatalf("no %q in %s.%s", text, typ, fn)
		return ""
	}
	for _, tc := range []struct {
		typ  string
		load int  // a: the n-th state load in Acquire
		want bool // Judge's dependence holds (fetchRechecked does not)
	}{
		{"Sem", 1, false},
		{"Eq", 1, false},
		{"Plain", 1, true},
		// Early's first load is re-validated before the fetch by the
		// second (revalidated); the second is the stale check.
		{"Early", 2, true},
		{"Masked", 1, true},
		{"Both", 1, true},
	} {
		acq := Frame{ID: 1, Site: site(tc.typ, "Acquire", "", 0, 0)}
		rel := Frame{ID: 2, Site: site(tc.typ, "Release", "", 0, 0)}
		load := Event{Thread: 1, Unit: 1, Var: 0, Read: true, Site: site(tc.typ, "Acquire", "LoadUint64(", tc.load, 10), Frames: []Frame{acq}}
		cas := Event{Thread: 2, Unit: 2, Var: 0, Read: true, Write: true, Site: site(tc.typ, "Release", "CompareAndSwapUint64(", 1, 20), Frames: []Frame{rel}}
		swap := Event{Thread: 2, Unit: 2, Var: 1, Write: true, Site: site(tc.typ, "Release", "s.ch", 2, 2), Frames: []Frame{rel}}
		fetch := Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: site(tc.typ, "Acquire", "s.ch", 1, 2), Frames: []Frame{acq}}
		if !x.wokenFetch(fetch) {
			t.Errorf("%s: wokenFetch(fetch) = false: the near miss tests nothing", tc.typ)
		}
		if v := x.Judge([]Event{load, cas, swap, fetch}); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.typ, v.Holds, v, tc.want)
		}
		if got := x.fetchRechecked(load, fetch); got == tc.want {
			t.Errorf("%s: fetchRechecked = %v, want %v", tc.typ, got, !tc.want)
		}
		if tc.load > 1 {
			// The load before the re-load is no check after the fetch either.
			first := load
			first.Site = site(tc.typ, "Acquire", "LoadUint64(", 1, 10)
			if x.fetchRechecked(first, fetch) {
				t.Errorf("%s: fetchRechecked(first load) = true, want false", tc.typ)
			}
		}
	}
}
