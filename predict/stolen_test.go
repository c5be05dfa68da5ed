package predict

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/internal/oracle"
	"github.com/pecanvet/pecanvet/pattern"
)

// relay: request and reply share one channel (the subject stolenrecv):
// g1 sends a job (t.go:30), the worker g2 receives it (t.go:10) and
// replies on the same channel (t.go:11), which the collector g3 receives
// (t.go:20). g3's receive can take the job first: the worker then waits
// forever for a job, since its own reply is the only other send.
const relay = `
	g1 begin
	g1 fork g2 @t.go:1
	g1 fork g3 @t.go:2
	g2 begin
	g3 begin
	g1 send ch @t.go:30
	g2 recv ch @t.go:10
	g2 send ch @t.go:11
	g3 recv ch @t.go:20
	g2 end
	g3 end
`

func stolenPattern(t *testing.T) *pattern.Pattern {
	for _, p := range builtin(t, "leak") {
		if p.Stolen {
			return p
		}
	}
	t.Fatal("no stolen-partner pattern in the leak set")
	return nil
}

func stolenKeys(t *testing.T, text string) []string {
	t.Helper()
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr, []*pattern.Pattern{stolenPattern(t)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range res.Anomalies {
		keys = append(keys, a.Key)
		sched := a.Schedule.Events()
		if n := len(sched); n < 3 || sched[n-1] != a.Events[1] || !slices.Contains(sched[n-3:n-1], a.Events[0]) {
			t.Errorf("%s: schedule %v does not end with the thief and the stranded operation", a.Key, sched)
		}
	}
	return keys
}

func TestStolenRelay(t *testing.T) {
	got := stolenKeys(t, relay)
	want := []string{"r@t.go:20|r@t.go:10"}
	if !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
}

func TestStolenNotReal(t *testing.T) {
	for name, text := range map[string]string{
		// Separate channels for the job and the reply: the fixed twin.
		"two channels": strings.ReplaceAll(strings.ReplaceAll(relay, "send ch @t.go:11", "send reply @t.go:11"), "recv ch @t.go:20", "recv reply @t.go:20"),
		// Buffered: the job waits in the buffer for whoever comes.
		"buffered": strings.ReplaceAll(relay, " ch @", " ch cap=1 @"),
		// A second job from another goroutine can complete the worker's
		// receive: it is not surely stranded.
		"second job": strings.ReplaceAll(strings.ReplaceAll(relay, "\tg3 begin", "\tg3 begin\n\tg1 fork g4 @t.go:3\n\tg4 begin"), "\tg2 end", "\tg4 send ch @t.go:40\n\tg3 recv ch @t.go:21\n\tg2 end"),
		// The collector receives only after the worker's reply was sent
		// (a second channel orders them): it cannot take the job.
		"ordered": strings.ReplaceAll(relay, "\tg2 send ch @t.go:11", "\tg2 send go @t.go:12\n\tg3 recv go @t.go:19\n\tg2 send ch @t.go:11"),
	} {
		if got := stolenKeys(t, text); len(got) != 0 {
			t.Errorf("%s: predicted %q", name, got)
		}
	}
}

// poolTrace is a random trace of three or four goroutines that exchange
// values on up to three unbuffered channels, each pair's sender and
// receiver drawn anew (so that one channel has competing receivers or
// senders), with some lock-protected writes, as a run records it: a send
// and its receive back to back.
func poolTrace(rng *rand.Rand) string {
	nG := 3 + rng.IntN(2)
	progs := make([][]string, nG)
	put := func(g int, st string) {
		i := rng.IntN(len(progs[g]) + 1)
		progs[g] = slices.Insert(progs[g], i, st)
	}
	for c := 1; c <= 1+rng.IntN(3); c++ {
		for k := 1 + rng.IntN(3); k > 0; k-- {
			s := rng.IntN(nG)
			r := (s + 1 + rng.IntN(nG-1)) % nG
			put(s, fmt.Sprintf("send c%d", c))
			put(r, fmt.Sprintf("recv c%d", c))
		}
	}
	for g := range progs {
		for k := rng.IntN(2); k > 0; k-- {
			put(g, "lockw")
		}
	}
	return simulate(rng, progs)
}

// simulate runs progs (per goroutine: "send c", "recv c", "lockw") in a
// random order, forked by main, and returns the trace, or "" when they
// deadlock.
func simulate(rng *rand.Rand, progs [][]string) string {
	nG := len(progs)
	site := 10
	var out []string
	pos := make([]int, nG)
	begun := make([]bool, nG)
	name := func(g int) string { return fmt.Sprintf("g%d", g+1) }
	siteOf := map[string]int{}
	at := func(g, i int) string {
		k := fmt.Sprintf("%d.%d", g, i)
		if _, ok := siteOf[k]; !ok {
			site++
			siteOf[k] = site
		}
		return fmt.Sprintf("@t.go:%d", siteOf[k])
	}
	for g := range nG {
		out = append(out, fmt.Sprintf("main fork %s @t.go:%d", name(g), g+1))
	}
	for {
		var can []int
		for g := range nG {
			if !begun[g] || pos[g] < len(progs[g]) {
				can = append(can, g)
			}
		}
		if len(can) == 0 {
			break
		}
		moved := false
		for _, g := range rng.Perm(len(can)) {
			g = can[g]
			if !begun[g] {
				out = append(out, name(g)+" begin")
				begun[g] = true
				moved = true
				break
			}
			f := strings.Fields(progs[g][pos[g]])
			switch f[0] {
			case "lockw":
				out = append(out, name(g)+" lock L "+at(g, pos[g]), name(g)+" write x "+at(g, pos[g]), name(g)+" unlock L "+at(g, pos[g]))
			case "recv":
				continue // taken with its send
			case "close":
				left := false
				for o := range nG {
					for _, st := range progs[o][pos[o]:] {
						left = left || st == "send "+f[1]
					}
				}
				if left {
					continue // a close after every send: none panics
				}
				out = append(out, name(g)+" close "+f[1]+" "+at(g, pos[g]))
			case "send":
				var hs []int
				for o := range nG {
					if o != g && begun[o] && pos[o] < len(progs[o]) && progs[o][pos[o]] == "recv "+f[1] {
						hs = append(hs, o)
					}
				}
				if len(hs) == 0 {
					continue
				}
				h := hs[rng.IntN(len(hs))]
				out = append(out, name(g)+" send "+f[1]+" "+at(g, pos[g]), name(h)+" recv "+f[1]+" "+at(h, pos[h]))
				pos[h]++
			}
			pos[g]++
			moved = true
			break
		}
		if !moved {
			return ""
		}
	}
	return strings.Join(out, "\n")
}

// TestStolenAgainstOracle: on random traces with competing receivers and
// senders, the stolen partners predicted are exactly those an exhaustive
// search of the feasible schedules reaches (with no other operation that
// could complete the stranded one able to run before it), per report key,
// and each schedule is feasible up to its last three steps.
func TestStolenAgainstOracle(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(29, 3))
	p := stolenPattern(t)
	var real, traces int
	for i := 0; i < n; i++ {
		text := poolTrace(rng)
		if text == "" {
			continue
		}
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if len(tr.Events) > 50 {
			continue
		}
		traces++
		m := oracle.New(tr)
		want := m.StolenKeys(p)
		res, err := Run(tr, []*pattern.Pattern{p}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		real += matchOracle(t, i, text, "stolen partner", m, res, want, 3)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d traces, %d real stolen partners", traces, real)
	if real < traces/10 {
		t.Errorf("only %d stolen partners in %d traces: the generator does not exercise the finder", real, traces)
	}
}
