package predict

import (
	"math/rand/v2"

	"github.com/pecanvet/pecanvet/internal/oracle"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/pattern"
)

// writesClose is grpc-go#1687's shape: g3 (a Write) sends on the writes
// channel (t.go:30), which g2's loop receives (t.go:10); g1 then sends
// the status (t.go:20), which the loop receives too, and closes the
// channel (t.go:21). The recorded run orders g3's send before the close
// only through the loop's receives: held at its send, g3 lets g1's
// status go first, and the close then comes before g3's send.
const writesClose = `
	g1 begin
	g1 fork g2 @t.go:1
	g1 fork g3 @t.go:2
	g2 begin
	g3 begin
	g3 send w @t.go:30
	g2 recv w @t.go:10
	g2 write x @t.go:11
	g1 send w @t.go:20
	g2 recv w @t.go:10
	g2 write x @t.go:12
	g1 close w @t.go:21
	g2 recv w @t.go:10 closed
	g3 end
	g2 end
`

func closeFirstKeys(t *testing.T, text string) ([]string, []Anomaly) {
	t.Helper()
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	var pats []*pattern.Pattern
	for _, p := range builtin(t, "chan") {
		if p.ID() == "race/close-send" {
			pats = append(pats, p)
		}
	}
	res, err := Run(tr, pats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range res.Anomalies {
		keys = append(keys, a.Key)
	}
	return keys, res.Anomalies
}

func TestCloseFirstWrites(t *testing.T) {
	keys, as := closeFirstKeys(t, writesClose)
	if want := []string{"r@t.go:30|w@t.go:21"}; !slices.Equal(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	tr, _ := gen.Parse(writesClose)
	var got []string
	for _, e := range as[0].Schedule.Events() {
		ev := tr.Events[e]
		got = append(got, tr.Goroutines[ev.G]+" "+ev.Op.String()+" "+tr.Site(ev))
	}
	// g3 is held at its send; the loop's first receive takes the status
	// and the loop stops there (its write is another's now); then the
	// close and the send.
	want := []string{"g1 begin ", "g1 fork t.go:1", "g1 fork t.go:2", "g2 begin ", "g3 begin ",
		"g1 send t.go:20", "g2 recv t.go:10", "g1 close t.go:21", "g3 send t.go:30"}
	if !slices.Equal(got, want) {
		t.Errorf("schedule\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCloseFirstNotReal(t *testing.T) {
	for name, text := range map[string]string{
		// The closer waits for g3's acknowledgement, sent after its send.
		"acknowledged": strings.ReplaceAll(writesClose, "\tg2 write x @t.go:11", "\tg2 write x @t.go:11\n\tg3 send ack @t.go:31\n\tg1 recv ack @t.go:22"),
		// One goroutine sends and closes: program order.
		"same goroutine": strings.ReplaceAll(strings.ReplaceAll(writesClose, "g3 send w @t.go:30", "g1 send w @t.go:30"), "g1 fork g3 @t.go:2\n", ""),
	} {
		if keys, _ := closeFirstKeys(t, text); len(keys) != 0 {
			t.Errorf("%s: predicted %q", name, keys)
		}
	}
}

// closeTrace is a random trace of three or four goroutines: g1 receives
// every value sent on c1, the others send on it, and one of them closes
// it after its own sends; an extra channel between two goroutines and
// some lock-protected writes may order things further.
func closeTrace(rng *rand.Rand) string {
	nG := 3 + rng.IntN(2)
	progs := make([][]string, nG)
	put := func(g int, st string) {
		i := rng.IntN(len(progs[g]) + 1)
		progs[g] = slices.Insert(progs[g], i, st)
	}
	n := 2 + rng.IntN(3)
	for range n {
		put(1+rng.IntN(nG-1), "send c1")
		progs[0] = append(progs[0], "recv c1")
	}
	if rng.IntN(2) == 0 {
		s := rng.IntN(nG)
		r := (s + 1 + rng.IntN(nG-1)) % nG
		put(s, "send c2")
		put(r, "recv c2")
	}
	for g := range progs {
		for k := rng.IntN(2); k > 0; k-- {
			put(g, "lockw")
		}
	}
	closer := 1 + rng.IntN(nG-1)
	progs[closer] = append(progs[closer], "close c1")
	return simulate(rng, progs)
}

// TestCloseFirstAgainstOracle: on random traces of a channel with
// competing senders and a close, the sends predicted to come after the
// close are exactly those an exhaustive search reaches under the same
// rules (oracle.CloseFirstKeys), per report key.
func TestCloseFirstAgainstOracle(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(29, 4))
	var p *pattern.Pattern
	for _, q := range builtin(t, "chan") {
		if q.ID() == "race/close-send" {
			p = q
		}
	}
	var real, traces int
	for i := 0; i < n; i++ {
		text := closeTrace(rng)
		if text == "" {
			continue
		}
		tr, err := gen.Parse(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if len(tr.Events) > 40 {
			continue
		}
		traces++
		m := oracle.New(tr)
		want := m.CloseFirstKeys(p)
		res, err := Run(tr, []*pattern.Pattern{p}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, a := range res.Anomalies {
			if _, ok := want[a.Key]; !ok && m.POR(int(a.Events[1]), int(a.Events[0])) {
				t.Errorf("trace %d: predicted %s %v, which no schedule reaches\n%s", i, a.Key, a.Events, text)
			}
			got[a.Key] = true
		}
		for k, w := range want {
			real++
			if !got[k] {
				t.Errorf("trace %d: missed %s %v, oracle schedule %v\n%s", i, k, w.Inst, w.Schedule, text)
			}
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d traces, %d sends reached after the close", traces, real)
	if real < traces/10 {
		t.Errorf("only %d in %d traces: the generator does not exercise the finder", real, traces)
	}
}

// stopClose is knative/serving#5865's shape: g2's loop receives g3's
// update (t.go:11, a case of a select whose other case, t.go:10,
// receives from stop), applies it under a lock, and later sees stop
// closed by g1 and closes the update channel on its way out (t.go:9, a
// deferred close). The recorded run orders g3's send before the close
// only through the loop's receive of it: held at its send, g3 lets g1's
// close go first, the select takes its stop case, and the close comes
// before the send.
const stopClose = `
	g1 begin
	g1 fork g2 @t.go:1
	g1 fork g3 @t.go:2
	g2 begin
	g3 begin
	g3 send u @t.go:30
	g2 recv u @t.go:11
	g2 lock m @t.go:12
	g2 write x @t.go:13
	g2 unlock m @t.go:14
	g3 end
	g1 write y @t.go:19
	g1 close stop @t.go:20
	g2 recv stop @t.go:10 ok=false
	g2 close u @t.go:9
	g2 end
`

func stopCloseRun(t *testing.T, text string, stop func(sel, stop string) bool) []Anomaly {
	t.Helper()
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	var pats []*pattern.Pattern
	for _, p := range builtin(t, "chan") {
		if p.ID() == "race/close-send" {
			pats = append(pats, p)
		}
	}
	res, err := Run(tr, pats, Options{StopCase: stop})
	if err != nil {
		t.Fatal(err)
	}
	return res.Anomalies
}

func TestStopCloseFirst(t *testing.T) {
	as := stopCloseRun(t, stopClose, stopCases([]string{"t.go:10", "t.go:11"}))
	if len(as) != 1 || as[0].Key != "r@t.go:30|w@t.go:9" {
		t.Fatalf("anomalies %v, want the one close-send r@t.go:30|w@t.go:9", as)
	}
	tr, _ := gen.Parse(stopClose)
	var got []string
	for _, e := range as[0].Schedule.Events() {
		ev := tr.Events[e]
		got = append(got, tr.Goroutines[ev.G]+" "+ev.Op.String()+" "+tr.Site(ev))
	}
	// Each goroutine stops before its event (g2 before its case, g3
	// before its send); then the stop, the select's stop case, skipping
	// the recorded round that applied g3's update, the deferred close,
	// and the send.
	want := []string{"g1 begin ", "g1 fork t.go:1", "g1 fork t.go:2", "g1 write t.go:19", "g2 begin ", "g3 begin ",
		"g1 close t.go:20", "g2 recv t.go:10", "g2 close t.go:9", "g3 send t.go:30"}
	if !slices.Equal(got, want) {
		t.Errorf("schedule\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without the select's stop case, CloseFirst alone finds nothing:
	// the loop's receive of the held send keeps its recorded branch.
	if as := stopCloseRun(t, stopClose, nil); len(as) != 0 {
		t.Errorf("without StopCase: %v", as)
	}
}

func TestStopCloseFirstNot(t *testing.T) {
	sel := stopCases([]string{"t.go:10", "t.go:11"})
	for name, c := range map[string]struct {
		text string
		stop func(sel, stop string) bool
	}{
		// The upstream fix: nothing closes the update channel.
		"no close": {strings.ReplaceAll(stopClose, "\tg2 close u @t.go:9\n", ""), sel},
		// The receive of stop is no case of the update's select: another
		// select, which the loop reaches only after the round.
		"other select": {stopClose, stopCases([]string{"t.go:11", "t.go:15"}, []string{"t.go:10", "t.go:16"})},
		// The skipped round starts a goroutine: the ones started after
		// it would be named otherwise in the replay.
		"fork skipped": {strings.ReplaceAll(stopClose, "\tg2 write x @t.go:13\n", "\tg2 write x @t.go:13\n\tg2 fork g4 @t.go:3\n\tg4 begin\n\tg4 end\n"), sel},
		// The skipped round takes a lock it does not release.
		"lock left": {strings.ReplaceAll(stopClose, "\tg2 unlock m @t.go:14\n", ""), sel},
		// A step after the stop case is at a skipped step's site: the
		// replay numbers a goroutine's steps at a site by occurrence.
		"site again": {strings.ReplaceAll(stopClose, "\tg2 close u @t.go:9\n", "\tg2 write x @t.go:13\n\tg2 close u @t.go:9\n"), sel},
		// The closer waits for the sender after its send (an
		// acknowledgement) before it stops: no schedule closes first.
		"acknowledged": {strings.ReplaceAll(stopClose, "\tg3 end\n", "\tg3 send ack @t.go:31\n\tg1 recv ack @t.go:18\n\tg3 end\n"), sel},
	} {
		if as := stopCloseRun(t, c.text, c.stop); len(as) != 0 {
			var keys []string
			for _, a := range as {
				keys = append(keys, a.Key)
			}
			t.Errorf("%s: predicted %q", name, keys)
		}
	}
}
