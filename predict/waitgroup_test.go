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
	"github.com/pecanvet/pecanvet/predict/ptg"
)

func wgPatternT(t *testing.T) *pattern.Pattern {
	t.Helper()
	for _, p := range builtin(t, "sync") {
		if p.WG {
			return p
		}
	}
	t.Fatal("no wg pattern in the sync set")
	return nil
}

// wgAddInside: wgwrongadd's shape, as rt records it. g1 calls Add (from
// 0: the model's read of W) inside the goroutine main started; main's
// Wait blocks (the model's write of W) until g1's Done.
const wgAddInside = `
	main fork g1 @t.go:1
	g1 begin
	g1 wg-add WG @t.go:10
	g1 read W @t.go:10
	main write W @t.go:2
	g1 write X @t.go:11
	g1 wg-done WG @t.go:12
	g1 end
	main wg-wait WG @t.go:2
	main read X @t.go:3
`

func earlyWaitKeys(t *testing.T, text string, pats []*pattern.Pattern) []string {
	t.Helper()
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr, pats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range res.Anomalies {
		keys = append(keys, a.Pattern.ID()+" "+a.Key)
		if !a.Pattern.WG {
			continue
		}
		sched := a.Schedule.Events()
		if n := len(sched); n < 3 || !slices.Equal(sched[n-2:], a.Events) {
			t.Errorf("%s: schedule %v does not end with the Wait and the Add %v", a.Key, sched, a.Events)
		}
	}
	slices.Sort(keys)
	return keys
}

func TestEarlyWait(t *testing.T) {
	pw := wgPatternT(t)
	got := earlyWaitKeys(t, wgAddInside, []*pattern.Pattern{pw})
	want := []string{"sync/wg-add-after-wait r@t.go:2|w@t.go:10"}
	if !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
	// With the races on too, the race of the model's read and write is
	// not predicted besides: it is the early Wait. Without the wg
	// pattern, it is.
	race := builtin(t, "race")
	if got := earlyWaitKeys(t, wgAddInside, append([]*pattern.Pattern{pw}, race...)); slices.ContainsFunc(got, func(k string) bool { return strings.Contains(k, "@t.go:2|") && strings.HasPrefix(k, "race/") }) {
		t.Errorf("with the wg pattern: keys %q include the model's race", got)
	}
	if got := earlyWaitKeys(t, wgAddInside, race); !slices.ContainsFunc(got, func(k string) bool { return strings.HasPrefix(k, "race/") && strings.Contains(k, "t.go:10") }) {
		t.Errorf("races only: keys %q lack the model's race", got)
	}
	// The fix's shape: the Add before the go statement (same goroutine as
	// the Wait) is no candidate; an Add inside that the waiter learns of
	// through a channel before it waits is ordered before the Wait.
	fixed := strings.Replace(strings.Replace(wgAddInside, "g1 read W @t.go:10\n", "g1 read W @t.go:10\n\tg1 send K @t.go:13 cap=1\n", 1),
		"main write W @t.go:2\n", "main recv K @t.go:4 cap=1\n\tmain write W @t.go:2\n", 1)
	if got := earlyWaitKeys(t, fixed, []*pattern.Pattern{pw}); len(got) != 0 {
		t.Fatalf("ordered: keys %q, want none\n%s", got, fixed)
	}
}

// wgTrace writes a random program of main and 1–3 workers on one
// WaitGroup, as rt records it: each worker's Add is main's before the go
// statement, or the worker's own, after which it may tell main so on a
// buffered channel that main receives before waiting; an Add from 0 is
// followed by the model's read of W; main's Wait writes W first when it
// blocks. It runs the program in a random interleaving.
func wgTrace(rng *rand.Rand) string {
	nW := 1 + rng.IntN(3)
	type worker struct{ outside, tells bool }
	ws := make([]worker, nW)
	var mainProg []string
	for i := range ws {
		ws[i].outside = rng.IntN(3) == 0
		ws[i].tells = !ws[i].outside && rng.IntN(3) == 0
		if ws[i].outside {
			mainProg = append(mainProg, "add")
		}
		mainProg = append(mainProg, fmt.Sprintf("fork %d", i))
	}
	for i := range ws {
		if ws[i].tells {
			mainProg = append(mainProg, fmt.Sprintf("recv %d", i))
		}
	}
	mainProg = append(mainProg, "wait", "read")
	progs := make([][]string, nW)
	for i, w := range ws {
		var p []string
		p = append(p, "begin")
		if !w.outside {
			p = append(p, "add")
		}
		if w.tells {
			p = append(p, "send")
		}
		p = append(p, "write", "done", "end")
		progs[i] = p
	}
	var out []string
	counter := 0
	started := make([]bool, nW)
	pos := make([]int, nW)
	mpos := 0
	waiting := false // main wrote W and waits for 0
	sent := make([]bool, nW)
	add := func(g string, site int) {
		out = append(out, fmt.Sprintf("%s wg-add WG @t.go:%d", g, site))
		if counter == 0 {
			out = append(out, fmt.Sprintf("%s read W @t.go:%d", g, site))
		}
		counter++
	}
	for {
		var can []int // -1: main
		if mpos < len(mainProg) {
			f := strings.Fields(mainProg[mpos])
			switch {
			case f[0] == "recv":
				var i int
				fmt.Sscan(f[1], &i)
				if sent[i] {
					can = append(can, -1)
				}
			case f[0] == "wait" && waiting:
				if counter == 0 {
					can = append(can, -1)
				}
			default:
				can = append(can, -1)
			}
		}
		for i := range ws {
			if started[i] && pos[i] < len(progs[i]) {
				can = append(can, i)
			}
		}
		if len(can) == 0 {
			break
		}
		g := can[rng.IntN(len(can))]
		if g < 0 {
			f := strings.Fields(mainProg[mpos])
			switch f[0] {
			case "add":
				add("main", 1)
			case "fork":
				var i int
				fmt.Sscan(f[1], &i)
				out = append(out, fmt.Sprintf("main fork g%d @t.go:%d", i+1, 2+i))
				started[i] = true
			case "recv":
				var i int
				fmt.Sscan(f[1], &i)
				out = append(out, fmt.Sprintf("main recv K%d @t.go:%d cap=1", i+1, 6+i))
			case "wait":
				if !waiting && counter > 0 {
					out = append(out, "main write W @t.go:9")
					waiting = true
					continue
				}
				out = append(out, "main wg-wait WG @t.go:9")
			case "read":
				out = append(out, "main read X @t.go:30")
			}
			mpos++
			continue
		}
		name := fmt.Sprintf("g%d", g+1)
		switch op := progs[g][pos[g]]; op {
		case "begin", "end":
			out = append(out, name+" "+op)
		case "add":
			add(name, 10) // one site: the Adds of a loop's goroutines
		case "send":
			out = append(out, fmt.Sprintf("%s send K%d @t.go:%d cap=1", name, g+1, 20+g))
			sent[g] = true
		case "write":
			out = append(out, fmt.Sprintf("%s write X @t.go:11", name))
		case "done":
			out = append(out, fmt.Sprintf("%s wg-done WG @t.go:12", name))
			counter--
		}
		pos[g]++
	}
	return strings.Join(out, "\n")
}

// TestEarlyWaitsAgainstOracle: on random WaitGroup traces, the early
// Waits predicted (each with a schedule) are exactly the ones an
// exhaustive search of the feasible schedules reaches, per report key,
// and each schedule's prefix up to the Wait's entry is feasible.
func TestEarlyWaitsAgainstOracle(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(29, 4))
	pw := wgPatternT(t)
	var real, traces int
	for i := 0; i < n; i++ {
		text := wgTrace(rng)
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if len(tr.Events) > 50 {
			continue
		}
		traces++
		m := oracle.New(tr)
		want := m.EarlyWaitKeys(pw)
		res, err := Run(tr, []*pattern.Pattern{pw}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		// The tail's Wait and Add follow a Wait that did not block in
		// the replay: only the prefix and the entry run as recorded.
		real += matchOracle(t, i, text, "early Wait", m, res, want, 2)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d traces, %d early Waits", traces, real)
	if traces < n/2 || real < traces/10 {
		t.Errorf("%d traces, %d early Waits: the generator does not exercise the finder", traces, real)
	}
}

// TestObservedEarlyWait: wgwrongadd recorded on a loaded machine: main's
// Wait ran before g1's Add and did not block (no model write), so no
// Wait blocked on the Add; the recording itself shows the early Wait. A
// later round's Add that main sends for after its Wait returned (a reused
// WaitGroup) is ordered after it, and is none.
func TestObservedEarlyWait(t *testing.T) {
	pw := wgPatternT(t)
	loaded := `
	main fork g1 @t.go:1
	main wg-wait WG @t.go:2
	main read X @t.go:3
	g1 begin
	g1 wg-add WG @t.go:10
	g1 read W @t.go:10
	g1 write X @t.go:11
	g1 wg-done WG @t.go:12
	g1 end
`
	want := []string{"sync/wg-add-after-wait r@t.go:2|w@t.go:10"}
	if got := earlyWaitKeys(t, loaded, []*pattern.Pattern{pw}); !slices.Equal(got, want) {
		t.Errorf("loaded: keys %q, want %q", got, want)
	}
	reused := `
	main fork g1 @t.go:1
	main wg-wait WG @t.go:2
	main send K @t.go:4 cap=1
	g1 begin
	g1 recv K @t.go:9 cap=1
	g1 wg-add WG @t.go:10
	g1 read W @t.go:10
	g1 wg-done WG @t.go:12
	g1 end
`
	if got := earlyWaitKeys(t, reused, []*pattern.Pattern{pw}); len(got) != 0 {
		t.Errorf("reused: keys %q, want none", got)
	}
}

// TestEarlyWaitsBounded: a WaitGroup per element, each Waited on without
// blocking and later Added to again by another goroutine (xsync's
// UMPSCQueue reuses its values through a pool), gives one site
// combination many instances. At most maxEarlyWaitTries of them are
// scheduled, and each schedule is charged to the work bound as the access
// search's are.
func TestEarlyWaitsBounded(t *testing.T) {
	pw := wgPatternT(t)
	const n = 3 * maxEarlyWaitTries
	var b strings.Builder
	b.WriteString("main fork g1 @t.go:1\n")
	for i := range n {
		fmt.Fprintf(&b, "main wg-wait WG%d @t.go:2\n", i)
	}
	b.WriteString("g1 begin\n")
	for i := range n {
		fmt.Fprintf(&b, "g1 wg-add WG%d @t.go:10\ng1 read W%d @t.go:10\n", i, i)
	}
	// Long enough for a schedule to cost more than a poll.
	for range 3 * workEvents {
		b.WriteString("g1 write X @t.go:11\n")
	}
	b.WriteString("g1 end\n")
	tr, err := gen.Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if got := len(ObservedEarlyWaits(ptg.Build(tr))); got != n {
		t.Fatalf("%d observed early Waits, want %d", got, n)
	}
	tried := 0
	res, err := Run(tr, []*pattern.Pattern{pw}, Options{MaxWork: 1 << 40, Confirm: func(Anomaly) bool { tried++; return false }})
	if err != nil {
		t.Fatal(err)
	}
	if tried != maxEarlyWaitTries {
		t.Errorf("%d instances of one combination tried, want %d", tried, maxEarlyWaitTries)
	}
	// Each schedule costs workSchedule + events/workEvents, the poll
	// before it included; the instances past the bound cost nothing.
	// (The search polls too, a few times on this trace.)
	per := int64(workSchedule + len(tr.Events)/workEvents)
	if res.Stats.Work < int64(tried)*per || res.Stats.Work > int64(tried)*per+int64(n-tried)/2 {
		t.Errorf("work %d for %d schedules of %d units", res.Stats.Work, tried, per)
	}
	// A work bound that the schedules reach stops them, and says where.
	res, err = Run(tr, []*pattern.Pattern{pw}, Options{MaxWork: res.Stats.Work - per, Confirm: func(Anomaly) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	if !res.WorkCut || res.Stats.CutAt != pw.ID() || !strings.Contains(res.Cut, "past the race search, at pattern "+pw.ID()) {
		t.Errorf("cut by the work bound: WorkCut %v, CutAt %q, Cut %q", res.WorkCut, res.Stats.CutAt, res.Cut)
	}
}
