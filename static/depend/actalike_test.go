package depend

import (
	"fmt"
	"strings"
	"testing"
)

// TestActAlike: limiter's Increment (a miss, then LoadOrStore whose loaded
// path does what a hit does), through wrappers or on the sync.Map itself,
// is alike; a loaded path that increments its own new counter, or twice,
// a miss counted before the store, a call between Load or LoadOrStore and
// the test of its flag, a wrapper that says true on a miss, a
// Store instead of LoadOrStore, another goroutine at another load or in
// another function, or two keys, are not.
func TestActAlike(t *testing.T) {
	x, lines := buildShapes(t, "actalike")
	// at is the site of the call's parenthesis after name, on the first
	// line holding it after the declaration of function fn.
	at := func(fn, name string) string {
		in := false
		for i, l := range lines {
			if strings.HasPrefix(l, "func (cache *Cache) "+fn+"(") {
				in = true
				continue
			}
			if in && strings.Contains(l, name+"(") {
				return fmt.Sprintf("actalike/actalike.go:%d:%d", i+1, strings.Index(l, name+"(")+len(name)+1)
			}
		}
		t.Fatalf("no %s( in %s", name, fn)
		return ""
	}
	decl := func(fn string) string {
		for i, l := range lines {
			if strings.HasPrefix(l, "func (cache *Cache) "+fn+"(") {
				return fmt.Sprintf("actalike/actalike.go:%d:%d", i+1, strings.Index(l, " "+fn+"(")+2)
			}
		}
		t.Fatalf("no func %s", fn)
		return ""
	}
	fr := func(id int32, fn string) Frame { return Frame{ID: id, Site: decl(fn)} }
	// evs: the unit's load at load (in frames lf), another goroutine's
	// there (its own activations, same sites), the unit's act at act.
	evs := func(load string, lf []Frame, act string, af []Frame) []Event {
		var rf []Frame
		for _, f := range lf {
			rf = append(rf, Frame{ID: f.ID + 100, Site: f.Site})
		}
		return []Event{
			{Thread: 1, Unit: 1, Read: true, Site: load, Frames: lf, Key: 7},
			{Thread: 2, Unit: 2, Read: true, Site: load, Frames: rf, Key: 7},
			{Thread: 1, Unit: 1, Read: true, Write: true, Site: act, Frames: af, Key: 7},
		}
	}
	inc, load, los := fr(1, "Increment"), fr(2, "Load"), fr(3, "LoadOrStore")
	limiter := evs(at("Load", "Load"), []Frame{inc, load}, at("LoadOrStore", "LoadOrStore"), []Frame{inc, los})
	direct := func(fn string, act string) []Event {
		f := fr(1, fn)
		return evs(at(fn, "Load"), []Frame{f}, at(fn, act), []Frame{f})
	}
	wrapped := func(fn, loader string) []Event {
		f := fr(1, fn)
		return evs(at(loader, "Load"), []Frame{f, fr(2, loader)}, at("LoadOrStore", "LoadOrStore"), []Frame{f, los})
	}
	elsewhere := direct("IncrementDirect", "LoadOrStore")
	elsewhere[1].Frames = []Frame{fr(9, "IncrementCounted")}
	twoKeys := direct("IncrementDirect", "LoadOrStore")
	twoKeys[2].Key = 8
	unkeyed := evs(at("Load", "Load"), []Frame{inc, load}, at("LoadOrStore", "LoadOrStore"), []Frame{inc, los})
	for k := range unkeyed {
		unkeyed[k].Key = 0
	}
	otherLoad := direct("IncrementDirect", "LoadOrStore")
	otherLoad[1].Site = at("IncrementCounted", "Load")
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"limiter", limiter, true},
		{"limiter, keys not recorded", unkeyed, true},
		{"direct", direct("IncrementDirect", "LoadOrStore"), true},
		{"own counter", wrapped("IncrementOwn", "Load"), false},
		{"twice", direct("IncrementTwice", "LoadOrStore"), false},
		{"counted miss", direct("IncrementCounted", "LoadOrStore"), false},
		{"noted race", direct("IncrementNoted", "LoadOrStore"), false},
		{"noted miss", direct("IncrementLogged", "LoadOrStore"), false},
		{"lying wrapper", wrapped("IncrementFresh", "loadFresh"), false},
		{"store", direct("IncrementStore", "Store"), false},
		{"another function", elsewhere, false},
		{"two keys", twoKeys, false},
		{"another load", otherLoad, false},
	} {
		if got := x.ActAlike(c.evs); got != c.want {
			t.Errorf("%s: ActAlike = %v, want %v", c.name, got, c.want)
		}
	}
}
