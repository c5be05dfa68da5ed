package predict

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/internal/oracle"
)

// selectLeak: the test goroutine forks a sender and takes its value in a
// select (t.go:20) that also has a timeout.
const selectLeak = `
	g1 begin
	g1 fork g2 @t.go:1
	g2 begin
	g2 write x @t.go:10
	g2 send ch @t.go:11
	g1 recv ch @t.go:20
	g2 end
`

func leakKeys(t *testing.T, text string, alt func(string) bool) []string {
	t.Helper()
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr, builtin(t, "leak"), Options{SelectAlt: alt})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range res.Anomalies {
		keys = append(keys, a.Key)
		sched := a.Schedule.Events()
		n := len(sched)
		if n < 2 || sched[n-2] != a.Events[0] || sched[n-1] != a.Events[1] {
			t.Errorf("%s: schedule %v does not end with the select's case and its partner", a.Key, sched)
		}
	}
	return keys
}

func atSite(sites ...string) func(string) bool {
	return func(s string) bool { return slices.Contains(sites, s) }
}

func TestLeakSelect(t *testing.T) {
	got := leakKeys(t, selectLeak, atSite("t.go:20"))
	want := []string{"r@t.go:20|w@t.go:11"}
	if !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
}

func TestLeakNotReal(t *testing.T) {
	for name, tc := range map[string]struct {
		text string
		alt  func(string) bool
	}{
		// The receive is no select case with another branch.
		"plain receive": {selectLeak, atSite()},
		"no SelectAlt":  {selectLeak, nil},
		// A buffer of one takes the send: the fixed twin.
		"buffered": {strings.ReplaceAll(strings.ReplaceAll(selectLeak, "@t.go:11", "@t.go:11 cap=1"), "@t.go:20", "@t.go:20 cap=1"), atSite("t.go:20")},
		// Someone else receives too: the send may still complete.
		"second receiver": {strings.ReplaceAll(selectLeak, "\tg2 end", "\tg2 end\n\tg1 fork g3 @t.go:2\n\tg3 begin\n\tg3 send ch @t.go:30\n\tg1 recv ch @t.go:21"), atSite("t.go:20")},
	} {
		if got := leakKeys(t, tc.text, tc.alt); len(got) != 0 {
			t.Errorf("%s: predicted %q", name, got)
		}
	}
}

// chanTrace is a random trace of up to three goroutines that exchange
// values on unbuffered channels (each with one send and one receive, or
// with a third operation), take a lock and write, as a run would record
// it: a send and its receive are recorded back to back.
func chanTrace(rng *rand.Rand) string {
	nG := 2 + rng.IntN(2)
	progs := make([][]string, nG)
	site := 10
	put := func(g int, st string) {
		i := rng.IntN(len(progs[g]) + 1)
		progs[g] = slices.Insert(progs[g], i, st)
	}
	for c := 1; c <= 1+rng.IntN(3); c++ {
		s := rng.IntN(nG)
		r := (s + 1 + rng.IntN(nG-1)) % nG
		send := "send"
		if rng.IntN(3) == 0 { // sent holding lock M
			send = "sendM"
		}
		put(s, fmt.Sprintf("%s c%d", send, c))
		put(r, fmt.Sprintf("recv c%d", c))
		if rng.IntN(4) == 0 { // a second pair on the channel
			put(s, fmt.Sprintf("send c%d", c))
			put(r, fmt.Sprintf("recv c%d", c))
		}
	}
	for g := range progs {
		for k := rng.IntN(3); k > 0; k-- {
			put(g, "lockw")
		}
		if rng.IntN(3) == 0 {
			put(g, "lockm")
		}
	}
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
			case "lockm":
				out = append(out, name(g)+" lock M "+at(g, pos[g]), name(g)+" write y "+at(g, pos[g]), name(g)+" unlock M "+at(g, pos[g]))
			case "recv":
				continue // taken with its send
			case "send", "sendM":
				h := -1
				for o := range nG {
					if o != g && begun[o] && pos[o] < len(progs[o]) && progs[o][pos[o]] == "recv "+f[1] {
						h = o
					}
				}
				if h < 0 {
					continue
				}
				pair := []string{name(g) + " send " + f[1] + " " + at(g, pos[g]), name(h) + " recv " + f[1] + " " + at(h, pos[h])}
				if f[0] == "sendM" {
					pair = append(append([]string{name(g) + " lock M " + at(g, pos[g])}, pair...), name(g)+" unlock M "+at(g, pos[g]))
				}
				out = append(out, pair...)
				pos[h]++
			}
			pos[g]++
			moved = true
			break
		}
		if !moved {
			return "" // the programs deadlock: no trace
		}
	}
	return strings.Join(out, "\n")
}

// TestLeaksAgainstOracle: on random channel traces, with random sites
// taken for select cases, the leaks predicted (each with a schedule) are
// exactly those an exhaustive search of the feasible schedules reaches,
// per report key, and each schedule is feasible up to its last two steps.
func TestLeaksAgainstOracle(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(29, 2))
	pats := builtin(t, "leak")
	var real, traces int
	for i := 0; i < n; i++ {
		text := chanTrace(rng)
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
		sel := map[string]bool{}
		for _, s := range tr.Sites {
			if rng.IntN(2) == 0 {
				sel[s] = true
			}
		}
		loop := map[string]bool{} // a select whose other branch loops back
		for _, s := range tr.Sites {
			if !sel[s] && rng.IntN(2) == 0 {
				loop[s] = true
			}
		}
		alt := func(s string) bool { return sel[s] }
		loopAlt := func(s string) bool { return loop[s] }
		m := oracle.New(tr)
		want := m.LeakKeysLoop(pats[0], alt, loopAlt)
		res, err := Run(tr, pats, Options{SelectAlt: alt, SelectLoopAlt: loopAlt})
		if err != nil {
			t.Fatal(err)
		}
		real += matchOracle(t, i, text, "leak", m, res, want, 2)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d traces, %d real leaks", traces, real)
	if real < traces/10 {
		t.Errorf("only %d leaks in %d traces: the generator does not exercise the finder", real, traces)
	}
}

// heldLeak: moby#28462's shape. g2's loop selects on stop (t.go:20) and
// a timer whose branch takes the container's lock c and comes back
// (t.go:30); g1 sends on stop holding c.
const heldLeak = `
	g1 begin
	g1 fork g2 @t.go:1
	g2 begin
	g2 lock c @t.go:30
	g2 write probes @t.go:31
	g2 unlock c @t.go:32
	g1 lock c @t.go:10
	g1 write running @t.go:11
	g1 send stop @t.go:12
	g2 recv stop @t.go:20
	g1 unlock c @t.go:13
	g2 end
`

// TestLeakHeldLock: a select whose other branch loops back strands its
// partner only when the partner holds a lock the select's goroutine
// takes (in write mode on one side at least).
func TestLeakHeldLock(t *testing.T) {
	loop := func(s string) bool { return s == "t.go:20" }
	run := func(text string, alt, loopAlt func(string) bool) []string {
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(tr, builtin(t, "leak"), Options{SelectAlt: alt, SelectLoopAlt: loopAlt})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, a := range res.Anomalies {
			keys = append(keys, a.Key)
		}
		return keys
	}
	none := func(string) bool { return false }
	if got := run(heldLeak, none, loop); !slices.Equal(got, []string{"r@t.go:20|w@t.go:12"}) {
		t.Errorf("held lock: %v, want the leak r@t.go:20|w@t.go:12", got)
	}
	for name, tc := range map[string]struct {
		text         string
		alt, loopAlt func(string) bool
	}{
		"no SelectLoopAlt":     {heldLeak, none, nil},
		"no SelectAlt":         {heldLeak, nil, loop},
		"not a looping select": {heldLeak, none, none},
		// The sender unlocks before its send.
		"released": {strings.Replace(strings.Replace(heldLeak, "\tg1 unlock c @t.go:13\n", "", 1), "\tg1 send stop", "\tg1 unlock c @t.go:13\n\tg1 send stop", 1), none, loop},
		// The loop never takes c.
		"other lock": {strings.NewReplacer("g2 lock c", "g2 lock d", "g2 unlock c", "g2 unlock d").Replace(heldLeak), none, loop},
		// Both read-lock c: the loop's RLock does not wait.
		"read locks": {strings.NewReplacer("lock c", "rlock c", "unlock c", "runlock c").Replace(heldLeak), none, loop},
	} {
		if got := run(tc.text, tc.alt, tc.loopAlt); len(got) != 0 {
			t.Errorf("%s: predicted %v", name, got)
		}
	}
}

// TestLeakUnpaced: a leak whose partner nothing but the replay's hold
// can make late for the select's timeout is marked Unpaced (check drops
// it if the replay's clock fired during the hold); one whose partner
// the select's own activation started, or that waits on a sleep begun
// after the timer was armed, is not.
func TestLeakUnpaced(t *testing.T) {
	// watermill's decorator: Subscribe (a method: a region) starts the
	// forwarder g2, which takes a message from g3 and sends it on; the
	// test's BulkRead selects on it with a timeout.
	const forwarder = `
	g1 begin
	g1 region-begin Dec.Subscribe @t.go:1
	g1 fork g2 @t.go:2
	g1 region-end Dec.Subscribe @t.go:3
	g2 begin
	g1 fork g3 @t.go:4
	g3 begin
	g3 send in @t.go:30
	g2 recv in @t.go:10
	g2 send out @t.go:11
	g1 recv out @t.go:20
	g2 end
	g3 end
`
	// The same, with the message's sender sleeping first: the partner
	// waits on time of its own.
	sleeper := strings.Replace(forwarder, "g3 begin\n", "g3 begin\n\tg3 sleep @t.go:29\n", 1)
	// The same, with the sender waiting on a timer's channel first
	// (<-time.After(d)): time of its own too. A channel of that type on
	// which the program sends is no timer.
	timer := strings.Replace(forwarder, "g3 begin\n", "g3 begin\n\tg3 recv <-chan_time.Time#1 @t.go:29\n", 1)
	notTimer := strings.Replace(timer, "g3 begin\n", "g3 begin\n\tg1 send <-chan_time.Time#1 @t.go:28\n", 1)
	// A sleep before the select's goroutine's last event ahead of the
	// select ran out before the timer was armed: no excuse.
	before := strings.Replace(forwarder, "g1 fork g3 @t.go:4", "g1 sleep @t.go:4", 1)
	before = strings.Replace(before, "g3 begin\n\tg3 send in @t.go:30", "g1 send in @t.go:30", 1)
	before = strings.Replace(before, "\tg3 end\n", "", 1)
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"go with timeout", selectLeak, false},
		{"forwarder", forwarder, true},
		{"forwarder fed after a sleep", sleeper, false},
		{"forwarder fed after a timer", timer, false},
		{"forwarder fed after a program's channel", notTimer, true},
		{"sleep ahead of the select", before, true},
	} {
		tr, err := gen.Parse(tc.text)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		res, err := Run(tr, builtin(t, "leak"), Options{SelectAlt: atSite("t.go:20")})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Anomalies) != 1 {
			t.Fatalf("%s: %d anomalies, want 1", tc.name, len(res.Anomalies))
		}
		if got := res.Anomalies[0].Unpaced; got != tc.want {
			t.Errorf("%s: Unpaced %v, want %v", tc.name, got, tc.want)
		}
	}
}
