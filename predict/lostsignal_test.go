package predict

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/internal/oracle"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

func condPattern(t *testing.T) *pattern.Pattern {
	t.Helper()
	for _, p := range builtin(t, "deadlock") {
		if p.Cond {
			return p
		}
	}
	t.Fatal("no cond pattern in the deadlock set")
	return nil
}

// lostSignal69408: cockroach#69408's shape. g1 waits on C at once; g2,
// later in the run, signals it without M.
const lostSignal69408 = `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g1 begin
	g1 lock M @t.go:10
	g1 unlock M @t.go:11
	g2 begin
	g2 lock B @t.go:20
	g2 unlock B @t.go:21
	g2 cond-signal C @t.go:22
	g1 cond-wait C @t.go:11
	g1 lock M @t.go:11
	g1 unlock M @t.go:12
`

func lostSignalKeys(t *testing.T, text string) []string {
	t.Helper()
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr, []*pattern.Pattern{condPattern(t)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range res.Anomalies {
		keys = append(keys, a.Key)
		sched := a.Schedule.Events()
		if n := len(sched); n == 0 || sched[n-1] != a.Events[1] {
			t.Errorf("%s: schedule %v does not end with the Wait's entry", a.Key, sched)
		}
	}
	return keys
}

func TestLostSignal(t *testing.T) {
	got := lostSignalKeys(t, lostSignal69408)
	want := []string{"w@t.go:22|r@t.go:11"}
	if !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
	// The fix's shape: the signaler sets the predicate under M and
	// signals under it, and the waiter checks it under M first: the
	// signal cannot come between the waiter's check and its Wait (M is
	// held there), and before the check it is no signal to lose; the
	// finder still predicts the signal first, which the replay refutes
	// (the waiter reads the predicate set and does not wait). Here: a
	// signal forced after the Wait's entry by a channel is no candidate.
	ordered := strings.Replace(strings.Replace(lostSignal69408,
		"g1 unlock M @t.go:11\n", "g1 unlock M @t.go:11\n\tg1 send K @t.go:13\n", 1),
		"g2 begin\n", "g2 begin\n\tg2 recv K @t.go:23\n", 1)
	if got := lostSignalKeys(t, ordered); len(got) != 0 {
		t.Fatalf("ordered: keys %q, want none\n%s", got, ordered)
	}
}

// condTrace writes a random program: waiters that wait on C under M
// (lock M, Wait: unlock M, cond-wait, lock M; unlock M), signalers that
// signal or broadcast C, some under M, some after a lock B, some goroutines
// forked after another ended; and runs it in a random interleaving in
// which every Wait is woken (a trace that strands one is dropped: "")
// and returns holding M.
func condTrace(rng *rand.Rand) string {
	site := 0
	nG := 2 + rng.IntN(2)
	progs := make([][]string, nG)
	for g := range nG {
		var p []string
		line := func(s string) { site++; p = append(p, fmt.Sprintf(s, site)) }
		for b := 0; b < 1+rng.IntN(2); b++ {
			switch rng.IntN(3) {
			case 0: // a Wait
				line("lock M @t.go:%d")
				site++
				for _, op := range []string{"unlock M", "cond-wait C", "lock M"} {
					p = append(p, fmt.Sprintf("%s @t.go:%d", op, site))
				}
				line("unlock M @t.go:%d")
			case 1: // a signal under M
				line("lock M @t.go:%d")
				if rng.IntN(3) == 0 {
					line("cond-broadcast C @t.go:%d")
				} else {
					line("cond-signal C @t.go:%d")
				}
				line("unlock M @t.go:%d")
			default: // a signal without M, maybe after B
				if rng.IntN(2) == 0 {
					line("lock B @t.go:%d")
					line("unlock B @t.go:%d")
				}
				line("cond-signal C @t.go:%d")
			}
		}
		progs[g] = p
	}
	var out []string
	pos := make([]int, nG)
	holder := map[string]int{} // lock → 1 + goroutine
	var waiting []int          // goroutines in Wait, not woken
	woken := map[int]bool{}
	started := make([]bool, nG)
	joinFirst := nG == 3 && rng.IntN(2) == 0
	name := func(g int) string { return fmt.Sprintf("g%d", g+1) }
	out = append(out, "main fork g1 @t.go:100", "main fork g2 @t.go:101")
	started[0], started[1] = true, true
	for {
		var can []int
		for g := range nG {
			if !started[g] || pos[g] == len(progs[g])+2 {
				continue
			}
			if pos[g] == 0 || pos[g] == len(progs[g])+1 {
				can = append(can, g)
				continue
			}
			f := strings.Fields(progs[g][pos[g]-1])
			switch f[0] {
			case "lock":
				if holder[f[1]] != 0 {
					continue
				}
			case "cond-wait":
				// Wait returns holding M: the recorder writes the
				// cond-wait and M's lock at once.
				if !woken[g] || holder["M"] != 0 {
					continue
				}
			}
			can = append(can, g)
		}
		if nG == 3 && !started[2] && (!joinFirst || pos[0] == len(progs[0])+2) {
			can = append(can, -1)
		}
		if len(can) == 0 {
			break
		}
		g := can[rng.IntN(len(can))]
		switch {
		case g < 0:
			if joinFirst {
				out = append(out, "main join g1 @t.go:102")
			}
			out = append(out, "main fork g3 @t.go:103")
			started[2] = true
			continue
		case pos[g] == 0:
			out = append(out, name(g)+" begin")
		case pos[g] == len(progs[g])+1:
			out = append(out, name(g)+" end")
		default:
			st := progs[g][pos[g]-1]
			f := strings.Fields(st)
			switch f[0] {
			case "lock":
				holder[f[1]] = g + 1
			case "unlock":
				holder[f[1]] = 0
				if nx := pos[g]; nx < len(progs[g]) && strings.HasPrefix(progs[g][nx], "cond-wait") {
					waiting = append(waiting, g) // the Wait's entry
				}
			case "cond-signal":
				if len(waiting) > 0 {
					k := rng.IntN(len(waiting))
					woken[waiting[k]] = true
					waiting = slices.Delete(waiting, k, k+1)
				}
			case "cond-broadcast":
				for _, w := range waiting {
					woken[w] = true
				}
				waiting = nil
			case "cond-wait":
				delete(woken, g)
				holder["M"] = g + 1
				out = append(out, name(g)+" "+st)
				pos[g]++
				st = progs[g][pos[g]-1] // the lock M
			}
			out = append(out, name(g)+" "+st)
		}
		pos[g]++
	}
	for g := range nG {
		if started[g] && pos[g] != len(progs[g])+2 {
			return "" // a Wait no signal woke
		}
	}
	return strings.Join(out, "\n")
}

// TestLostSignalsAgainstOracle: on random Cond traces, the lost signals
// predicted (each with a schedule) are exactly the ones an exhaustive
// search of the feasible schedules reaches, per report key, and each
// schedule is feasible.
func TestLostSignalsAgainstOracle(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(29, 3))
	pc := condPattern(t)
	var real, traces int
	for i := 0; i < n; i++ {
		text := condTrace(rng)
		if text == "" {
			continue
		}
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if len(tr.Events) > 60 {
			continue
		}
		traces++
		m := oracle.New(tr)
		want := m.LostSignalKeys(pc)
		res, err := Run(tr, []*pattern.Pattern{pc}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, a := range res.Anomalies {
			got[a.Key] = true
			sched := toInts(a.Schedule.Events())
			if err := m.CheckSchedule(sched); err != nil {
				t.Errorf("trace %d: %s: infeasible schedule %v: %v\n%s", i, a.Key, sched, err, text)
			}
			if _, ok := want[a.Key]; !ok {
				t.Errorf("trace %d: predicted %s %v, which no feasible schedule reaches\n%s", i, a.Key, a.Events, text)
			}
		}
		for k, w := range want {
			real++
			if !got[k] {
				t.Errorf("trace %d: missed lost signal %s %v, oracle schedule %v\n%s", i, k, w.Inst, w.Schedule, text)
			}
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d traces, %d lost signals", traces, real)
	if traces < n/4 || real < traces/10 {
		t.Errorf("%d traces, %d lost signals: the generator does not exercise the finder", traces, real)
	}
}

// condCount: a consumer (g3) waits on C under M while q is empty and
// producers are left; each producer (g1, g2) appends to q and counts
// itself done in n, then signals. countLocked says whether the count is
// written under M (condcountfixed) or as an atomic after it (condcount).
func condCount(countLocked bool) string {
	count := "\tg%[1]d write n @t.go:22\n\tg%[1]d unlock M @t.go:23\n"
	if !countLocked {
		count = "\tg%[1]d unlock M @t.go:23\n\tg%[1]d atomic-rmw n @t.go:22\n"
	}
	prod := func(g int) string {
		return fmt.Sprintf("\tg%[1]d begin\n\tg%[1]d lock M @t.go:20\n\tg%[1]d read q @t.go:21\n\tg%[1]d write q @t.go:21\n", g) +
			fmt.Sprintf(count, g) + fmt.Sprintf("\tg%[1]d cond-signal C @t.go:24\n", g)
	}
	wait := "\tg3 read q @t.go:32\n\tg3 read n @t.go:32\n\tg3 unlock M @t.go:33\n"
	if !countLocked {
		wait = "\tg3 read q @t.go:32\n\tg3 atomic-load n @t.go:32\n\tg3 unlock M @t.go:33\n"
	}
	woken := "\tg3 cond-wait C @t.go:33\n\tg3 lock M @t.go:33\n"
	return "\tmain fork g1 @t.go:1\n\tmain fork g2 @t.go:2\n\tmain fork g3 @t.go:3\n\tg3 begin\n\tg3 lock M @t.go:30\n" +
		wait + prod(1) + woken + "\tg3 read q @t.go:40\n\tg3 write q @t.go:41\n" + wait + prod(2) + woken +
		"\tg3 read q @t.go:32\n\tg3 unlock M @t.go:42\n"
}

// TestSeenBeforeWait: a waiter whose guard re-reads, under the Cond's
// lock, every variable the signaller wrote before signalling, all of it
// under that lock, sees the signal's state (condcountfixed's shape); a
// count written outside the lock can be missed (condcount's), and so can
// a signal whose signaller wrote nothing the waiter reads (lostsignal).
func TestSeenBeforeWait(t *testing.T) {
	for _, c := range []struct {
		name string
		text string
		want []bool
	}{
		{"count under the lock", condCount(true), []bool{true, true}},
		{"atomic count after the unlock", condCount(false), []bool{false, false}},
		{"cockroach#69408", lostSignal69408, []bool{false}},
	} {
		tr, err := gen.Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		gr := ptg.Build(tr)
		ls := LostSignals(gr)
		var got []bool
		for _, l := range ls {
			got = append(got, SeenBeforeWait(gr, l))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: SeenBeforeWait of %v = %v, want %v", c.name, ls, got, c.want)
		}
	}
}

// TestLostSignalOrder: with a key tried at most maxDeadlockTries times,
// the Wait with no signal of its Cond after the one that woke it comes
// first: the last producer's, whose loss nothing repairs.
func TestLostSignalOrder(t *testing.T) {
	text := condCount(false)
	// A third producer and a third Wait, all at the same sites.
	text = strings.Replace(text, "\tg3 read q @t.go:32\n\tg3 unlock M @t.go:42\n",
		"\tg3 read q @t.go:40\n\tg3 write q @t.go:41\n\tg3 read q @t.go:32\n\tg3 atomic-load n @t.go:32\n\tg3 unlock M @t.go:33\n"+
			"\tg4 begin\n\tg4 lock M @t.go:20\n\tg4 read q @t.go:21\n\tg4 write q @t.go:21\n\tg4 unlock M @t.go:23\n\tg4 atomic-rmw n @t.go:22\n\tg4 cond-signal C @t.go:24\n"+
			"\tg3 cond-wait C @t.go:33\n\tg3 lock M @t.go:33\n\tg3 read q @t.go:32\n\tg3 unlock M @t.go:42\n", 1)
	text = strings.Replace(text, "\tmain fork g3 @t.go:3\n", "\tmain fork g3 @t.go:3\n\tmain fork g4 @t.go:4\n", 1)
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr, []*pattern.Pattern{condPattern(t)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anomalies) == 0 {
		t.Fatal("no lost signal predicted")
	}
	last := len(tr.Events) - 1
	for tr.Events[last].Op != trace.CondSignal {
		last--
	}
	if a := res.Anomalies[0]; a.Events[0] != int32(last) {
		t.Errorf("first lost signal tried is event %d's, want the last signal's, event %d", a.Events[0]+1, last+1)
	}
}
