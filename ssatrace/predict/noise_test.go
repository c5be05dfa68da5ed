package predict

import (
	"strings"
	"testing"
)

// counter: a unit increments and decrements a counter around its work
// (conc's running-goroutines counter) and another goroutine's increment
// falls between (atomics synchronize, so only an observed interleaving is
// one).
const counter = `
T1 fork T2 @c.go:1
T1 region-begin Pool.run @c.go:2
T1 atomic-rmw n @c.go:3 update=add
T2 begin
T2 atomic-rmw n @c.go:10 update=add
T1 read work @c.go:4
T1 atomic-rmw n @c.go:5 update=add
T1 region-end Pool.run @c.go:6
`

func TestCommutingUpdates(t *testing.T) {
	pats := builtin(t, "av", "asv")
	res, err := Run(parse(t, counter), pats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anomalies) != 0 {
		t.Errorf("Add against Add: got %s %s, want no anomaly", res.Anomalies[0].Pattern.ID(), numbers(res.Anomalies[0].Events))
	}
	// A remote update of another kind (Swap, or an Or against Adds) does
	// not commute: the violation stays.
	for _, remote := range []string{"T2 atomic-rmw n @c.go:10\n", "T2 atomic-rmw n @c.go:10 update=or\n"} {
		src := strings.Replace(counter, "T2 atomic-rmw n @c.go:10 update=add\n", remote, 1)
		res, err := Run(parse(t, src), pats, Options{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, a := range res.Anomalies {
			found = found || a.Pattern.ID() == "av/WWW" && numbers(a.Events) == "<3,5,7>"
		}
		if !found {
			t.Errorf("remote %q: no av/WWW <3,5,7> among %d anomalies", strings.TrimSpace(remote), len(res.Anomalies))
		}
	}
}
