package predict

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// stopLeaksNaive is StopLeaks as it was before the stops were gathered
// once per combination: per matched pair, every stop receive of the
// select's goroutine, each scanning its channel's receives for its match.
func stopLeaksNaive(gr *ptg.Graph, stop func(sel, stop string) bool) []StopLeak {
	if stop == nil {
		return nil
	}
	tr := gr.Tr
	chans, order, stopRecvs := chanIndex(tr)
	stoppers := func(e int32, x *chanOps, g1, g2 int32) []int32 {
		var out []int32
		other := func(o int32) bool { g := tr.Events[o].G; return g != g1 && g != g2 }
		if tr.Events[e].Flags&trace.FlagClosed != 0 {
			for _, cl := range x.close {
				if other(cl) {
					out = append(out, cl)
				}
			}
			return out
		}
		if x.buffered {
			return nil
		}
		for k, r := range x.recv {
			if r == e && k < len(x.send) && other(x.send[k]) {
				out = append(out, x.send[k])
			}
		}
		return out
	}
	completes := func(o, sel, str int32) bool {
		g := tr.Events[o].G
		if g == tr.Events[sel].G {
			return false
		}
		return !(g == tr.Events[str].G && tr.Events[o].Op == trace.Close && o > str)
	}
	oneG := func(ops []int32) int32 {
		g := tr.Events[ops[0]].G
		for _, o := range ops[1:] {
			if tr.Events[o].G != g {
				return -1
			}
		}
		return g
	}
	var out []StopLeak
	for _, obj := range order {
		c := chans[obj]
		if c.buffered || len(c.send) == 0 || len(c.recv) == 0 {
			continue
		}
		sendG, recvG := oneG(c.send), oneG(c.recv)
		for k := 0; k < min(len(c.send), len(c.recv)); k++ {
			s, r := c.send[k], c.recv[k]
			if tr.Events[s].G == tr.Events[r].G {
				continue
			}
			for _, p := range [][2]int32{{r, s}, {s, r}} {
				sel, str := p[0], p[1]
				sideG := recvG
				if sel == s {
					sideG = sendG
				}
				ok := sideG == tr.Events[sel].G
				for _, o := range c.close {
					if ok && completes(o, sel, str) {
						ok = false
					}
				}
				gs, gp := tr.Events[sel].G, tr.Events[str].G
				selSite := tr.Site(tr.Events[sel])
				if !ok || !stop(selSite, "") || stop(tr.Site(tr.Events[str]), "") {
					continue
				}
				seen := map[int32]bool{}
				for _, e := range stopRecvs[gs] {
					x := tr.Events[e].Obj
					if x == obj || chans[x] == nil || !stop(selSite, tr.Site(tr.Events[e])) {
						continue
					}
					for _, st := range stoppers(e, chans[x], gs, gp) {
						if !seen[st] {
							seen[st] = true
							out = append(out, StopLeak{Stop: st, Sel: sel, Stranded: str})
						}
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Sel != b.Sel {
			return a.Sel < b.Sel
		}
		if a.Stranded != b.Stranded {
			return a.Stranded < b.Stranded
		}
		return a.Stop < b.Stop
	})
	return out
}

// loopTrace is a random trace of select loops: four goroutines pass
// values over three unbuffered channels from a handful of sites, in
// rounds, some channels closed on the way (later receives see them
// closed), so that a loop's goroutine has many stop receives, stopped by
// several goroutines, over many rounds of the same sites.
func loopTrace(rng *rand.Rand) string {
	var out []string
	emit := func(s string, a ...any) { out = append(out, fmt.Sprintf(s, a...)) }
	emit("g1 begin")
	for g := 2; g <= 4; g++ {
		emit("g1 fork g%d @t.go:1", g)
		emit("g%d begin", g)
	}
	chans := []string{"a", "b", "c"}
	closed := map[string]bool{}
	// Each channel has its sender and receiver, now and then another.
	sender, receiver := map[string]int{}, map[string]int{}
	for _, ch := range chans {
		sender[ch], receiver[ch] = 1+rng.IntN(4), 1+rng.IntN(4)
		for receiver[ch] == sender[ch] {
			receiver[ch] = 1 + rng.IntN(4)
		}
	}
	other := func(g int) int {
		if rng.IntN(20) == 0 {
			return 1 + rng.IntN(4)
		}
		return g
	}
	for round := 10 + rng.IntN(30); round > 0; round-- {
		ch := chans[rng.IntN(len(chans))]
		r := other(receiver[ch])
		site := 20 + rng.IntN(3)
		switch {
		case closed[ch]:
			emit("g%d recv %s @t.go:%d ok=false", r, ch, site)
		case rng.IntN(15) == 0:
			emit("g%d close %s @t.go:6", other(sender[ch]), ch)
			closed[ch] = true
		default:
			emit("g%d send %s @t.go:%d", other(sender[ch]), ch, 10+rng.IntN(2))
			emit("g%d recv %s @t.go:%d", r, ch, site)
		}
	}
	return strings.Join(out, "\n")
}

// TestStopLeakSetsNaive: StopLeaks (the sets flattened) is exactly the
// naive per-pair scan's list, in its order, on random select-loop traces
// and random stop cases.
func TestStopLeakSetsNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 85))
	sites := []string{"t.go:10", "t.go:11", "t.go:20", "t.go:21", "t.go:22"}
	var nonEmpty, shared int
	for i := 0; i < 400; i++ {
		text := loopTrace(rng)
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		var selects [][]string
		for n := rng.IntN(4); n > 0; n-- {
			var s []string
			for _, site := range sites {
				if rng.IntN(3) != 0 {
					s = append(s, site)
				}
			}
			selects = append(selects, s)
		}
		stop := stopCases(selects...)
		gr := ptg.Build(tr)
		want, got := stopLeaksNaive(gr, stop), StopLeaks(gr, stop)
		if !slices.Equal(got, want) {
			t.Fatalf("trace %d: StopLeaks %v, want %v\n%s", i, got, want, text)
		}
		if len(want) > 0 {
			nonEmpty++
		}
		if len(StopLeakSets(gr, stop)) < len(want) {
			shared++
		}
	}
	t.Logf("%d of 400 traces with leaks, %d with a set of several stops", nonEmpty, shared)
	if nonEmpty < 40 || shared < 20 {
		t.Errorf("%d traces with leaks, %d with a set of several stops: the generator does not exercise the sets", nonEmpty, shared)
	}
}
