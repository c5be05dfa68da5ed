package check

import (
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestSupersededAt: istio's Cache.Set (u) adds to the write count, and
// another Set (g) adds before u loads it back; u sets the gauge to what
// it loaded, and g, after loading the count at the same site, sets the
// gauge again at the same site: the gauge's store is superseded. It is
// not when g's store comes before u's, lands on another object (an id
// kept per item), is at another site, or comes from no load at the
// read-back's site after g's add (g adds again first); nor for u's store
// after its next access of the count, nor when u reads the gauge back
// itself (an id kept in a field and then used) or stores at the site
// again an object g does not.
func TestSupersededAt(t *testing.T) {
	const (
		u, g  = 0, 1
		w     = 0 // the count
		gauge = 1
		other = 2 // another gauge, or an item's id
	)
	sites := []string{"add", "load", "set", "set2"}
	site := func(s string) int32 { return int32(slices.Index(sites, s)) }
	ev := func(gr int32, op trace.Op, obj int32, s string) trace.Event {
		e := trace.Event{G: gr, Op: op, Obj: obj, Site: site(s)}
		if op == trace.AtomicRMW {
			e.Flags = trace.FlagAdd | trace.FlagUnused
		}
		return e
	}
	// pa = 0, pb = 2.
	head := []trace.Event{
		ev(u, trace.AtomicRMW, w, "add"),
		ev(g, trace.AtomicRMW, w, "add"),
		ev(u, trace.AtomicLoad, w, "load"),
	}
	run := func(tail ...trace.Event) []string {
		tr := &trace.Trace{Tables: trace.Tables{Sites: sites}, Events: append(slices.Clone(head), tail...)}
		return supersededAt(tr, 0, 2)
	}
	for _, tc := range []struct {
		name string
		tail []trace.Event
		want []string
	}{
		{"superseded", []trace.Event{ev(u, trace.Write, gauge, "set"), ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, gauge, "set")}, []string{"set"}},
		{"g loaded first", []trace.Event{ev(g, trace.AtomicLoad, w, "load"), ev(u, trace.Write, gauge, "set"), ev(g, trace.Write, gauge, "set")}, []string{"set"}},
		{"g stored first", []trace.Event{ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, gauge, "set"), ev(u, trace.Write, gauge, "set")}, nil},
		{"another object", []trace.Event{ev(u, trace.Write, gauge, "set"), ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, other, "set")}, nil},
		{"another site", []trace.Event{ev(u, trace.Write, gauge, "set"), ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, gauge, "set2")}, nil},
		{"g adds again first", []trace.Event{ev(u, trace.Write, gauge, "set"), ev(g, trace.AtomicRMW, w, "add"), ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, gauge, "set")}, nil},
		{"g loads elsewhere", []trace.Event{ev(u, trace.Write, gauge, "set"), ev(g, trace.AtomicLoad, w, "set2"), ev(g, trace.Write, gauge, "set")}, nil},
		{"u reads its store back", []trace.Event{ev(u, trace.Write, gauge, "set"), ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, gauge, "set"), ev(u, trace.Read, gauge, "set2")}, nil},
		{"u's second store there not superseded", []trace.Event{ev(u, trace.Write, gauge, "set"), ev(u, trace.Write, other, "set"), ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, gauge, "set")}, nil},
		{"u's two stores there superseded", []trace.Event{ev(u, trace.Write, gauge, "set"), ev(u, trace.Write, other, "set"), ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, gauge, "set"), ev(g, trace.Write, other, "set")}, []string{"set"}},
		{"u's store after its next access", []trace.Event{ev(u, trace.AtomicRMW, w, "add"), ev(u, trace.Write, gauge, "set"), ev(g, trace.AtomicLoad, w, "load"), ev(g, trace.Write, gauge, "set")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(tc.tail...); !slices.Equal(got, tc.want) {
				t.Errorf("supersededAt = %q, want %q", got, tc.want)
			}
		})
	}
}
