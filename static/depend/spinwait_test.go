package depend

import "testing"

// TestJudgeSpinWaits: reugn/async's ConcurrentMap (testdata's Clearer).
// Clear stores the flag true, swaps the map and stores it false in a
// defer; a reader that reads the true between only sleeps or yields and
// reads again, so it leaves after the unit (spinWaits), and main's
// build judged the intermediate state used (map_concurrent.go:38 av).
// It still holds when the reader acts on the value (returns on it,
// counts its waits, gives up after some rounds, keeps the value) or
// when the unit's second write keeps the reader waiting.
func TestJudgeSpinWaits(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	fr := func(id int32, name string) []Frame {
		return []Frame{{ID: id, Site: at("func (c *Clearer) "+name+"(", name+"(")}}
	}
	set, unset := call("// clearer set", "Store"), call("// clearer unset", "Store")
	keptSet, keptAgain := call("// clearer kept set", "Store"), call("// clearer kept again", "Store")
	busy, done := call("// clearer phase busy", "Store"), call("// clearer phase done", "Store")
	for _, c := range []struct {
		name, reader, load string
		first, second      string
		writer             string
		want               bool // Judge holds
	}{
		{"a sleeping spin", "Map", "// clearer spin load", set, unset, "Clear", false},
		{"a yielding spin", "MapYield", "// clearer yield load", set, unset, "Clear", false},
		{"a spin on a phase compared with a constant", "MapPhase", "// clearer phase load", busy, done, "Shift", false},
		{"a reader that returns on the flag", "MapNow", "// clearer now load", set, unset, "Clear", true},
		{"a spin that counts its waits", "MapCounted", "// clearer counted load", set, unset, "Clear", true},
		{"a spin that gives up", "MapTries", "// clearer tries load", set, unset, "Clear", true},
		{"a spin that keeps the value", "MapSeen", "// clearer seen load", set, unset, "Clear", true},
		{"a unit whose end keeps the spin", "Map", "// clearer spin load", keptSet, keptAgain, "ClearKept", true},
	} {
		a := Event{Thread: 1, Unit: 1, Write: true, Site: c.first, Frames: fr(1, c.writer)}
		r := Event{Thread: 2, Unit: 2, Read: true, Site: call(c.load, "Load"), Frames: fr(2, c.reader)}
		b := Event{Thread: 1, Unit: 1, Write: true, Site: c.second, Frames: fr(1, c.writer)}
		if got := x.spinWaits(a, b, r); got == c.want {
			t.Errorf("%s: spinWaits = %v, want %v", c.name, got, !c.want)
		}
		if v := x.Judge([]Event{a, r, b}); v.Holds != c.want {
			t.Errorf("%s: Judge(write, other's read, write) = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}
