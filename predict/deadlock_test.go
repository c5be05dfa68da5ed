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

// abba: g1 takes A then B, and after it ran (a sleep kept them apart) g2
// takes B then A.
const abba = `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g1 begin
	g1 lock A @t.go:10
	g1 lock B @t.go:11
	g1 unlock B @t.go:12
	g1 unlock A @t.go:13
	g2 begin
	g2 lock B @t.go:20
	g2 lock A @t.go:21
	g2 unlock A @t.go:22
	g2 unlock B @t.go:23
`

func deadlockKeys(t *testing.T, text string) []string {
	t.Helper()
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr, builtin(t, "deadlock"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range res.Anomalies {
		keys = append(keys, a.Key)
		sched := a.Schedule.Events()
		n := len(sched)
		k := len(a.Events) - 2 // the waiting acquisitions: the last two events
		if n < 2 || sched[n-2] != a.Events[k] || sched[n-1] != a.Events[k+1] {
			t.Errorf("%s: schedule %v does not end with the two waiting acquisitions", a.Key, sched)
		}
	}
	return keys
}

func TestInversionABBA(t *testing.T) {
	got := deadlockKeys(t, abba)
	want := []string{"w@t.go:10|w@t.go:20|w@t.go:11|w@t.go:21"}
	if !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
}

func TestInversionNotReal(t *testing.T) {
	for name, text := range map[string]string{
		// One order: the fixed twin.
		"one order": strings.ReplaceAll(strings.ReplaceAll(abba, "g2 lock B @t.go:20", "g2 lock A @t.go:20"), "g2 lock A @t.go:21", "g2 lock B @t.go:21"),
		// A guard lock G held around both.
		"guard": `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g1 begin
	g1 lock G @t.go:9
	g1 lock A @t.go:10
	g1 lock B @t.go:11
	g1 unlock B @t.go:12
	g1 unlock A @t.go:13
	g1 unlock G @t.go:14
	g2 begin
	g2 lock G @t.go:19
	g2 lock B @t.go:20
	g2 lock A @t.go:21
	g2 unlock A @t.go:22
	g2 unlock B @t.go:23
	g2 unlock G @t.go:24
`,
		// g2 starts only after g1 ended.
		"happens before": `
	main fork g1 @t.go:1
	g1 begin
	g1 lock A @t.go:10
	g1 lock B @t.go:11
	g1 unlock B @t.go:12
	g1 unlock A @t.go:13
	g1 end
	main join g1 @t.go:2
	main fork g2 @t.go:3
	g2 begin
	g2 lock B @t.go:20
	g2 lock A @t.go:21
	g2 unlock A @t.go:22
	g2 unlock B @t.go:23
`,
		// Readers do not exclude each other.
		"readers": strings.NewReplacer("unlock B", "runlock B", "lock B", "rlock B").Replace(abba),
	} {
		if got := deadlockKeys(t, text); len(got) != 0 {
			t.Errorf("%s: predicted %q", name, got)
		}
	}
}

// TestInversionRW: an RWMutex read-locked by one and write-locked by the
// other excludes.
func TestInversionRW(t *testing.T) {
	text := strings.NewReplacer("g1 lock B", "g1 rlock B", "g1 unlock B", "g1 runlock B").Replace(abba)
	if got := deadlockKeys(t, text); len(got) != 1 {
		t.Fatalf("keys %q, want one", got)
	}
}

// lockTrace writes a random program of goroutines that take two or three
// locks nested in random orders and modes (never one lock twice), some
// under a guard lock, some forked after others ended, and runs it in a
// random interleaving that does not deadlock.
func lockTrace(rng *rand.Rand) string {
	locks := []string{"A", "B", "C"}[:2+rng.IntN(2)]
	type ins struct{ op, obj string }
	site := 0
	var progs [][]string
	nG := 2 + rng.IntN(2)
	for g := 0; g < nG; g++ {
		var p []string
		line := func(op, obj string) {
			site++
			p = append(p, fmt.Sprintf("%s %s @t.go:%d", op, obj, site))
		}
		for b := 0; b < 1+rng.IntN(2); b++ {
			guard := rng.IntN(4) == 0
			if guard {
				line("lock", "G")
			}
			order := rng.Perm(len(locks))[:2+rng.IntN(len(locks)-1)]
			var rel []ins
			for _, k := range order {
				acq, r := "lock", "unlock"
				if rng.IntN(3) == 0 {
					acq, r = "rlock", "runlock"
				}
				line(acq, locks[k])
				rel = append(rel, ins{r, locks[k]})
			}
			for i := len(rel) - 1; i >= 0; i-- {
				line(rel[i].op, rel[i].obj)
			}
			if guard {
				line("unlock", "G")
			}
		}
		progs = append(progs, p)
	}
	return interleave(rng, progs)
}

// interleave runs the goroutines' programs (lines "op obj @site") in a
// random interleaving that respects the locks and does not deadlock:
// main forks each goroutine; with a third, it may first join the first
// one (a happens-before between them).
func interleave(rng *rand.Rand, progs [][]string) string {
	nG := len(progs)
	var out []string
	joinFirst := nG == 3 && rng.IntN(2) == 0
	pos := make([]int, nG)
	writer := map[string]int{}
	readers := map[string]int{}
	started := make([]bool, nG)
	out = append(out, "main fork g1 @t.go:100", "main fork g2 @t.go:101")
	started[0], started[1] = true, true
	for {
		var can []int
		for g := range nG {
			if !started[g] || pos[g] == len(progs[g])+1 {
				continue
			}
			if pos[g] == 0 {
				can = append(can, g)
				continue
			}
			if pos[g] == len(progs[g]) {
				can = append(can, g) // its end
				continue
			}
			nx := strings.Fields(progs[g][pos[g]-1]) // pos 1..len: statement pos-1
			op, obj := nx[0], nx[1]
			switch op {
			case "lock":
				if writer[obj] != 0 || readers[obj] != 0 {
					continue
				}
			case "rlock":
				if writer[obj] != 0 {
					continue
				}
			}
			can = append(can, g)
		}
		if nG == 3 && !started[2] && (!joinFirst || pos[0] == len(progs[0])+1) {
			can = append(can, -1)
		}
		if len(can) == 0 {
			break
		}
		g := can[rng.IntN(len(can))]
		name := func(g int) string { return fmt.Sprintf("g%d", g+1) }
		switch {
		case g < 0:
			if joinFirst {
				out = append(out, "main join g1 @t.go:102")
			}
			out = append(out, "main fork g3 @t.go:103")
			started[2] = true
		case pos[g] == 0:
			out = append(out, name(g)+" begin")
			pos[g]++
		case pos[g] == len(progs[g]):
			out = append(out, name(g)+" end")
			pos[g]++
		default:
			st := progs[g][pos[g]-1]
			f := strings.Fields(st)
			switch f[0] {
			case "lock":
				writer[f[1]]++
			case "rlock":
				readers[f[1]]++
			case "unlock":
				writer[f[1]]--
			case "runlock":
				readers[f[1]]--
			}
			out = append(out, name(g)+" "+st)
			pos[g]++
		}
	}
	return strings.Join(out, "\n")
}

// TestInversionsAgainstOracle: on random lock traces, the inversions
// predicted (each with a schedule) are exactly the deadlocks an
// exhaustive search of the feasible schedules reaches, per report key,
// and each schedule is feasible up to its two waiting acquisitions.
func TestInversionsAgainstOracle(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(29, 1))
	pats := builtin(t, "deadlock")
	var real, traces int
	for i := 0; i < n; i++ {
		text := lockTrace(rng)
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if len(tr.Events) > 60 {
			continue
		}
		traces++
		m := oracle.New(tr)
		want := m.DeadlockKeys(pats[0])
		res, err := Run(tr, pats, Options{})
		if err != nil {
			t.Fatal(err)
		}
		real += matchOracle(t, i, text, "deadlock", m, res, want, 2)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d traces, %d real deadlocks", traces, real)
	if real < traces/10 {
		t.Errorf("only %d deadlocks in %d traces: the generator does not exercise the finder", real, traces)
	}
}

// rwTrace writes a random program of goroutines that read-lock an RWMutex
// L, some recursively (rlock L twice), write-lock it, some of it under a
// guard lock G or around a lock B, and runs it in a random interleaving
// that does not deadlock.
func rwTrace(rng *rand.Rand) string {
	site := 0
	var progs [][]string
	nG := 2 + rng.IntN(2)
	for g := 0; g < nG; g++ {
		var p []string
		line := func(op, obj string) {
			site++
			p = append(p, fmt.Sprintf("%s %s @t.go:%d", op, obj, site))
		}
		for b := 0; b < 1+rng.IntN(2); b++ {
			guard := rng.IntN(4) == 0
			if guard {
				line("lock", "G")
			}
			switch rng.IntN(4) {
			case 0, 1: // a recursive read lock, maybe around B
				line("rlock", "L")
				inner := rng.IntN(3) == 0
				if inner {
					line("lock", "B")
				}
				line("rlock", "L")
				line("runlock", "L")
				if inner {
					line("unlock", "B")
				}
				line("runlock", "L")
			case 2: // a writer, maybe under B
				inner := rng.IntN(3) == 0
				if inner {
					line("lock", "B")
				}
				line("lock", "L")
				line("unlock", "L")
				if inner {
					line("unlock", "B")
				}
			default: // a plain reader
				line("rlock", "L")
				line("runlock", "L")
			}
			if guard {
				line("unlock", "G")
			}
		}
		progs = append(progs, p)
	}
	return interleave(rng, progs)
}

func TestRWCycleKubernetes62464(t *testing.T) {
	// g1 reads under L and calls a getter that read-locks L again; g2,
	// later in the run, write-locks L.
	text := `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g1 begin
	g1 rlock L @t.go:10
	g1 rlock L @t.go:11
	g1 runlock L @t.go:12
	g1 runlock L @t.go:13
	g2 begin
	g2 lock L @t.go:20
	g2 unlock L @t.go:21
`
	got := deadlockKeys(t, text)
	want := []string{"r@t.go:10|w@t.go:20|r@t.go:11"}
	if !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
	// The fix: one read lock.
	fixed := strings.NewReplacer("\tg1 rlock L @t.go:11\n", "", "\tg1 runlock L @t.go:12\n", "").Replace(text)
	if got := deadlockKeys(t, fixed); len(got) != 0 {
		t.Fatalf("fixed: keys %q, want none\n%s", got, fixed)
	}
}

// TestRWCyclesAgainstOracle: on random RWMutex traces, the recursive read
// locks behind a writer predicted (each with a schedule) are exactly the
// ones an exhaustive search of the feasible schedules reaches, per report
// key, and each schedule is feasible up to its two waiting acquisitions.
func TestRWCyclesAgainstOracle(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(29, 2))
	var pw *pattern.Pattern
	for _, p := range builtin(t, "deadlock") {
		if p.RWWriter() {
			pw = p
		}
	}
	if pw == nil {
		t.Fatal("no rlock-writer pattern in the deadlock set")
	}
	var real, traces int
	for i := 0; i < n; i++ {
		text := rwTrace(rng)
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if len(tr.Events) > 60 {
			continue
		}
		traces++
		m := oracle.New(tr)
		want := m.RWCycleKeys(pw)
		res, err := Run(tr, []*pattern.Pattern{pw}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, a := range res.Anomalies {
			got[a.Key] = true
			sched := toInts(a.Schedule.Events())
			n := len(sched)
			if sched[n-2] != int(a.Events[1]) || sched[n-1] != int(a.Events[2]) {
				t.Errorf("trace %d: %s: schedule %v does not end with the writer and the second read lock", i, a.Key, sched)
			}
			if err := m.CheckSchedule(sched[:n-2]); err != nil {
				t.Errorf("trace %d: %s: infeasible schedule %v: %v\n%s", i, a.Key, sched, err, text)
			}
			if _, ok := want[a.Key]; !ok {
				t.Errorf("trace %d: predicted %s %v, which no feasible schedule deadlocks\n%s", i, a.Key, a.Events, text)
			}
		}
		for k, w := range want {
			real++
			if !got[k] {
				t.Errorf("trace %d: missed deadlock %s %v, oracle schedule %v\n%s", i, k, w.Inst, w.Schedule, text)
			}
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d traces, %d real deadlocks", traces, real)
	if real < traces/10 {
		t.Errorf("only %d deadlocks in %d traces: the generator does not exercise the finder", real, traces)
	}
}
