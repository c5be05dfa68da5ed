package rt

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

const (
	oW int32 = 2200 + iota // after stuck_test.go's 2100…
	oGo1
	oGo2
)

var _ = Register(oW, []Site{
	{Pos: "fresh.go:3:2", Obj: "v"},
	{Pos: "fresh.go:1:1", Obj: "go"},
	{Pos: "fresh.go:2:1", Obj: "go"},
})

// twoWriters starts two goroutines that each write one int at the same
// site: a shared one, or each its own fresh allocation.
func twoWriters(shared bool) func() bool {
	return func() bool {
		var keep [2]*int // makes the allocations escape: heap objects
		var s *int
		if shared {
			s = new(int)
			keep[0] = s
		}
		var wg sync.WaitGroup
		wg.Add(2)
		for k, site := range []int32{oGo1, oGo2} {
			id := Go(site)
			go func() {
				Begin(id)
				defer wg.Done()
				defer End()
				p := s
				if p == nil {
					p = new(int)
					keep[k] = p
				}
				W(unsafe.Pointer(p), oW)
				*p = 1
			}()
		}
		wg.Wait()
		return keep[0] != nil && keep[1] != nil
	}
}

// freshSchedule: both goroutines' writes, after the forks and begins; the
// anomaly names objects a and b.
func freshSchedule(t *testing.T, a, b string) string {
	p := filepath.Join(t.TempDir(), "s.sched")
	s := "anomaly race/WW 5 6\n" +
		"g1 fork @fresh.go:1:1 n=1\n" +
		"g1 fork @fresh.go:2:1 n=1\n" +
		"g1.1 begin n=1\n" +
		"g1.2 begin n=1\n" +
		"g1.1 write " + a + " @fresh.go:3:2 n=1\n" +
		"g1.2 write " + b + " @fresh.go:3:2 n=1\n"
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReplayWrongObject: a replay that runs the schedule's steps at the
// right sites, in order, but on different objects than the prediction's is
// pruned ("wrong-object"), in both directions; on the predicted objects it
// is reproduced.
func TestReplayWrongObject(t *testing.T) {
	for _, c := range []struct {
		name   string
		shared bool
		a, b   string
		want   string
	}{
		{"fresh objects, predicted one", false, "v#1", "v#1", "wrong-object"},
		{"one object, predicted two", true, "v#1", "v#2", "wrong-object"},
		{"one object, predicted one", true, "v#1", "v#1", "reproduced"},
		{"fresh objects, predicted two", false, "v#1", "v#2", "reproduced"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, _, _ := replayOnce(t, freshSchedule(t, c.a, c.b), twoWriters(c.shared))
			if v.Verdict != c.want {
				t.Fatalf("verdict %+v, want %s", v, c.want)
			}
			if c.want == "wrong-object" && (v.Step != 6 || !strings.Contains(v.Message, "in the replay")) {
				t.Fatalf("verdict %+v: want step 6 and the objects in the message", v)
			}
		})
	}
}

const (
	kW int32 = 2250 + iota // between this file's 2200… and testgo_test.go's 2300…
	kGo1
	kGo2
)

var _ = Register(kW, []Site{
	{Pos: "keys.go:3:2", Obj: "map"},
	{Pos: "keys.go:1:1", Obj: "go"},
	{Pos: "keys.go:2:1", Obj: "go"},
})

// twoKeyWriters starts two goroutines that each write one element of a
// shared map at the same site: the same key, or each its own.
func twoKeyWriters(sameKey bool) func() bool {
	return func() bool {
		m := map[string]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		wg.Add(2)
		for k, site := range []int32{kGo1, kGo2} {
			id := Go(site)
			key := "a"
			if !sameKey && k == 1 {
				key = "b"
			}
			go func() {
				Begin(id)
				defer wg.Done()
				defer End()
				WK(unsafe.Pointer(&m), KeyHash(key), kW)
				mu.Lock()
				m[key]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		return true
	}
}

// keySchedule: both goroutines' element writes; the anomaly names keys a
// and b of one map.
func keySchedule(t *testing.T, a, b int64) string {
	p := filepath.Join(t.TempDir(), "s.sched")
	s := "anomaly race/WW 5 6\n" +
		"keys 5=" + strconv.FormatInt(a, 10) + " 6=" + strconv.FormatInt(b, 10) + "\n" +
		"g1 fork @keys.go:1:1 n=1\n" +
		"g1 fork @keys.go:2:1 n=1\n" +
		"g1.1 begin n=1\n" +
		"g1.2 begin n=1\n" +
		"g1.1 write map#1 @keys.go:3:2 n=1\n" +
		"g1.2 write map#1 @keys.go:3:2 n=1\n"
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReplayWrongKey: a replay whose anomaly steps touch the predicted map
// but other elements of it than the prediction's (one key where it named
// one element, two where it named two) is pruned ("wrong-object"); with
// the predicted relation it is reproduced, whatever the hashes' values.
func TestReplayWrongKey(t *testing.T) {
	for _, c := range []struct {
		name    string
		sameKey bool
		a, b    int64
		want    string
	}{
		{"two keys, predicted one", false, 7, 7, "wrong-object"},
		{"one key, predicted two", true, 7, 8, "wrong-object"},
		{"one key, predicted one", true, 7, 7, "reproduced"},
		{"two keys, predicted two", false, 7, 8, "reproduced"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, _, _ := replayOnce(t, keySchedule(t, c.a, c.b), twoKeyWriters(c.sameKey))
			if v.Verdict != c.want {
				t.Fatalf("verdict %+v, want %s", v, c.want)
			}
			if c.want == "wrong-object" && (v.Step != 6 || !strings.Contains(v.Message, "another key")) {
				t.Fatalf("verdict %+v: want step 6 and the keys in the message", v)
			}
		})
	}
}
