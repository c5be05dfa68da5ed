package hb

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

func run(t *testing.T, src string) *Detector {
	t.Helper()
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Run(tr)
}

func TestRaces(t *testing.T) {
	for _, c := range []struct {
		name, src string
		races     int
	}{
		{"unsynchronized writes", "main fork g1\ng1 begin\ng1 write x\nmain write x\n", 1},
		{"read then unsynchronized write", "main fork g1\ng1 begin\ng1 read x\nmain write x\n", 1},
		{"concurrent reads", "main fork g1\ng1 begin\ng1 read x\nmain read x\n", 0},
		{"concurrent reads then a write", "main fork g1\ng1 begin\ng1 read x\nmain read x\nmain write x\n", 1},
		{"fork orders", "main write x\nmain fork g1\ng1 begin\ng1 write x\n", 0},
		{"join orders", "main fork g1\ng1 begin\ng1 write x\ng1 end\nmain join g1\nmain write x\n", 0},
		{"mutex orders", "main fork g1\ng1 begin\ng1 lock mu\ng1 write x\ng1 unlock mu\nmain lock mu\nmain write x\nmain unlock mu\n", 0},
		{"different mutexes", "main fork g1\ng1 begin\ng1 lock mu\ng1 write x\ng1 unlock mu\nmain lock mu2\nmain write x\nmain unlock mu2\n", 1},
		{"buffered channel", "main fork g1\ng1 begin\ng1 write x\ng1 send c cap=1\nmain recv c cap=1\nmain write x\n", 0},
		{"unbuffered: receive orders the sender's next event", "main fork g1\ng1 begin\nmain write x\ng1 send c cap=0\nmain recv c cap=0\ng1 write x\n", 0},
		{"wait group", "main fork g1\ng1 begin\ng1 write x\ng1 wg-done wg\nmain wg-wait wg\nmain write x\n", 0},
		{"atomic flag", "main fork g1\ng1 begin\ng1 write x\ng1 atomic-store f\nmain atomic-load f\nmain write x\n", 0},
	} {
		if d := run(t, c.src); d.Races != c.races {
			t.Errorf("%s: %d races, want %d", c.name, d.Races, c.races)
		}
	}
}

func TestOrdered(t *testing.T) {
	for _, c := range []struct {
		name, src string
		i, j      int
		want      bool
	}{
		{"unsynchronized", "main fork g1\ng1 begin\ng1 write x\nmain write x\n", 2, 3, false},
		{"fork", "main write x\nmain fork g1\ng1 begin\ng1 write x\n", 0, 3, true},
		{"join", "main fork g1\ng1 begin\ng1 write x\ng1 end\nmain join g1\nmain write x\n", 2, 5, true},
		{"buffered send, receive", "main fork g1\ng1 begin\ng1 write x\ng1 send c cap=1\nmain recv c cap=1\nmain write x\n", 2, 5, true},
		// The TestRaceChanSendLen shape: the main goroutine waits for the
		// send by polling len(c), which does not synchronize.
		{"send, no receive", "main fork g1\ng1 begin\ng1 write x\ng1 send c cap=10\ng1 end\nmain write x\n", 2, 5, false},
		{"unbuffered: the sender's next event", "main fork g1\ng1 begin\nmain write x\ng1 send c cap=0\nmain recv c cap=0\ng1 write x\n", 2, 5, true},
		{"mutex", "main fork g1\ng1 begin\ng1 lock mu\ng1 write x\ng1 unlock mu\nmain lock mu\nmain write x\nmain unlock mu\n", 3, 6, true},
		{"other mutex", "main fork g1\ng1 begin\ng1 lock mu\ng1 write x\ng1 unlock mu\nmain lock mu2\nmain write x\nmain unlock mu2\n", 3, 6, false},
		{"same goroutine", "main write x\nmain write x\n", 0, 1, true},
	} {
		tr, err := trace.ReadTrace(strings.NewReader(c.src), c.name, trace.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := Ordered(tr, c.i, c.j); got != c.want {
			t.Errorf("%s: Ordered(%d, %d) = %v, want %v", c.name, c.i, c.j, got, c.want)
		}
	}
}

// TestOrderedPairs: one pass over many pairs agrees with a pass per pair.
func TestOrderedPairs(t *testing.T) {
	src := "main fork g1\ng1 begin\ng1 write x\ng1 send c cap=1\nmain write x\nmain recv c cap=1\nmain write x\ng1 lock mu\ng1 write y\ng1 unlock mu\nmain lock mu\nmain read y\nmain unlock mu\ng1 write z\nmain read z\n"
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]int
	for i := range tr.Events {
		for j := i + 1; j < len(tr.Events); j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	got := OrderedPairs(tr, pairs)
	for k, p := range pairs {
		if want := Ordered(tr, p[0], p[1]); got[k] != want {
			t.Errorf("pair %v: %v in one pass, %v alone", p, got[k], want)
		}
	}
	// Spot checks: g1's write x (2) is not ordered with main's first write
	// x (4), but is with its second (6, after the receive).
	for _, c := range []struct {
		i, j int
		want bool
	}{{2, 4, false}, {2, 6, true}, {8, 11, true}, {13, 14, false}} {
		if got := Ordered(tr, c.i, c.j); got != c.want {
			t.Errorf("Ordered(%d, %d) = %v, want %v", c.i, c.j, got, c.want)
		}
	}
}
