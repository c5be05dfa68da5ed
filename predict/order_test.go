package predict

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
)

// orderTrace: grpc-go#2371's shape. g2 (the watcher) reads B under M and
// uses it; g1 (Close) later, under M too, reads and nils B. Every access
// holds M: no race, no atomicity violation.
const orderTrace = `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g2 begin
	g2 lock M @t.go:20
	g2 write SC @t.go:21
	g2 read B @t.go:22
	g2 unlock M @t.go:23
	g2 end
	g1 begin
	g1 sleep @t.go:39
	g1 lock M @t.go:40
	g1 read B @t.go:41
	g1 write B @t.go:42
	g1 unlock M @t.go:43
	g1 end
`

func runOrder(t *testing.T, text string) []Anomaly {
	t.Helper()
	tr, err := gen.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr, builtin(t, "order"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Anomalies
}

func TestOrderSwap(t *testing.T) {
	as := runOrder(t, orderTrace)
	if len(as) != 1 || as[0].Key != "w@t.go:40|w@t.go:20" {
		t.Fatalf("anomalies %+v, want g1's section (t.go:40) before g2's (t.go:20)", as)
	}
	// g1's whole section comes first: its unlock, then g2's lock, last.
	tr, _ := gen.Parse(orderTrace)
	var ops []string
	for _, e := range as[0].Schedule.Events() {
		ops = append(ops, tr.Site(tr.Events[e]))
	}
	if i := slices.Index(ops, "t.go:43"); i < 0 || ops[len(ops)-1] != "t.go:20" || slices.Contains(ops, "t.go:21") {
		t.Errorf("schedule sites %v: want g1's unlock (t.go:43), then g2's lock (t.go:20) last", ops)
	}

	// The later goroutine's path to its section needs what the earlier
	// one did after its own (g2 tells g1 through a channel): no candidate.
	ordered := strings.Replace(strings.Replace(orderTrace,
		"g2 unlock M @t.go:23\n", "g2 unlock M @t.go:23\n\tg2 send K @t.go:24 cap=1\n", 1),
		"g1 sleep @t.go:39\n", "g1 recv K @t.go:39 cap=1\n", 1)
	if as := runOrder(t, ordered); len(as) != 0 {
		t.Errorf("ordered by a channel: %d anomalies, want none", len(as))
	}
	// Sections that share no variable (g1 writes C, not B): no conflict.
	apart := strings.ReplaceAll(strings.Replace(orderTrace, "g1 read B @t.go:41\n", "", 1), "g1 write B", "g1 write C")
	if as := runOrder(t, apart); len(as) != 0 {
		t.Errorf("no conflict: %d anomalies, want none", len(as))
	}
	// Two reads conflict with nothing.
	reads := strings.Replace(strings.Replace(orderTrace, "g1 write B @t.go:42\n", "", 1), "g2 write SC", "g2 read SC", 1)
	if as := runOrder(t, reads); len(as) != 0 {
		t.Errorf("reads only: %d anomalies, want none", len(as))
	}
	// Other locks: no pair.
	other := strings.Replace(strings.Replace(orderTrace, "g1 lock M", "g1 lock N", 1), "g1 unlock M", "g1 unlock N", 1)
	if as := runOrder(t, other); len(as) != 0 {
		t.Errorf("different locks: %d anomalies, want none", len(as))
	}
}

// TestOrderSwapClose: etcd#6429's shape. g2's section closes C (its
// endpoint came up); g1's later one writes what g2's wrote (P) and reads
// what it wrote (U). The channel alone would do: a close in each.
func TestOrderSwapClose(t *testing.T) {
	const tr = `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g2 begin
	g2 lock M @t.go:20
	g2 close C @t.go:21 cap=0
	g2 unlock M @t.go:23
	g2 end
	g1 begin
	g1 lock M @t.go:40
	g1 close C @t.go:41 cap=0
	g1 unlock M @t.go:43
	g1 end
`
	if as := runOrder(t, tr); len(as) != 1 || as[0].Key != "w@t.go:40|w@t.go:20" {
		t.Fatalf("anomalies %+v, want g1's section before g2's", as)
	}
}

// TestOrderSwapBound: a lock taken by many goroutines gives at most
// maxOrderPerLock candidates, one per pair of sites.
func TestOrderSwapBound(t *testing.T) {
	var b strings.Builder
	for g := range 12 {
		fmt.Fprintf(&b, "main fork g%d @t.go:1\n", g)
	}
	for g := range 12 {
		fmt.Fprintf(&b, "g%d begin\ng%d lock M @t.go:%d\ng%d write X @t.go:%d\ng%d unlock M @t.go:%d\ng%d end\n",
			g, g, 100+g, g, 200+g, g, 300+g, g)
	}
	tr, err := gen.Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(tr, builtin(t, "order"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(OrderSwaps(res.Graph)); n != maxOrderPerLock {
		t.Errorf("%d candidates, want %d", n, maxOrderPerLock)
	}
	// The same two sites again in the other order (g3 at t.go:40 before
	// g4 at t.go:20): folded into the first pair.
	const twice = `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	main fork g3 @t.go:3
	main fork g4 @t.go:4
	g2 begin
	g2 lock M @t.go:20
	g2 write X @t.go:21
	g2 unlock M @t.go:23
	g2 end
	g1 begin
	g1 lock M @t.go:40
	g1 write X @t.go:41
	g1 unlock M @t.go:43
	g1 end
	g3 begin
	g3 lock M @t.go:40
	g3 write X @t.go:41
	g3 unlock M @t.go:43
	g3 end
	g4 begin
	g4 lock M @t.go:20
	g4 write X @t.go:21
	g4 unlock M @t.go:23
	g4 end
`
	tr2, err := gen.Parse(twice)
	if err != nil {
		t.Fatal(err)
	}
	res2, err := Run(tr2, builtin(t, "order"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cs := OrderSwaps(res2.Graph); len(cs) != 1 {
		// g1 before g2; g4 before g3 is the same pair of sites, folded;
		// g3 after g1 and g4 after g2, each at the other's site: the
		// same code in either order, no pair.
		t.Errorf("candidates %v, want 1: one pair of sites", cs)
	}
}
