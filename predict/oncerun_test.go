package predict

import (
	"slices"
	"strings"
	"testing"
)

// oncerun is teivah/broadcast's Relay.Close and Listener.Close as rt
// records them: each call of Once.Do is a lock of the Once (O1, O2; D1,
// D2 their once events) held while its function runs. g2 closes listener
// 1 (its function locks the relay's M), then g1 closes the relay: holding
// M it runs listener 2's function; then g2's Close of listener 2 finds it
// run.
const oncerun = `
	main fork g1 @t.go:1
	main fork g2 @t.go:2
	g2 begin
	g2 lock O1 @t.go:50
	g2 lock M @t.go:52
	g2 unlock M @t.go:53
	g2 once D1 @t.go:50
	g2 unlock O1 @t.go:50
	g1 begin
	g1 lock M @t.go:27
	g1 lock O2 @t.go:30
	g1 once D2 @t.go:30
	g1 unlock O2 @t.go:30
	g1 unlock M @t.go:35
	g2 lock O2 @t.go:50
	g2 once D2 @t.go:50
	g2 unlock O2 @t.go:50
`

// TestOnceRun: g2's second Close can get into Do first; its function,
// run at t.go:50 as the first Close's was, then waits for M, which g1
// holds while it waits in Do (t.go:30) for that function.
func TestOnceRun(t *testing.T) {
	got := deadlockKeys(t, oncerun)
	want := []string{"w@t.go:27|w@t.go:50|w@t.go:30"}
	if !slices.Equal(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
}

func TestOnceRunNotReal(t *testing.T) {
	for name, text := range map[string]string{
		// Listener.Close takes M before Do, as Relay.Close does (the fix).
		"one order": strings.NewReplacer(
			"g2 lock O1 @t.go:50\n\tg2 lock M @t.go:52\n\tg2 unlock M @t.go:53\n\tg2 once D1 @t.go:50\n\tg2 unlock O1 @t.go:50",
			"g2 lock M @t.go:49\n\tg2 lock O1 @t.go:50\n\tg2 once D1 @t.go:50\n\tg2 unlock O1 @t.go:50\n\tg2 unlock M @t.go:53",
			"g2 lock O2 @t.go:50\n\tg2 once D2 @t.go:50\n\tg2 unlock O2 @t.go:50",
			"g2 lock M @t.go:49\n\tg2 lock O2 @t.go:50\n\tg2 once D2 @t.go:50\n\tg2 unlock O2 @t.go:50\n\tg2 unlock M @t.go:53",
		).Replace(oncerun),
		// No function run at t.go:50 took a lock: nothing says the
		// second Close's would.
		"no evidence": strings.Replace(oncerun, "g2 lock M @t.go:52\n\tg2 unlock M @t.go:53\n\t", "", 1),
		// g1's Do runs before g2's Close in every order: a channel
		// orders them.
		"ordered": strings.NewReplacer(
			"g1 unlock M @t.go:35", "g1 unlock M @t.go:35\n\tg1 send C @t.go:36",
			"g2 lock O2 @t.go:50", "g2 recv C @t.go:49\n\tg2 lock O2 @t.go:50",
		).Replace(oncerun),
	} {
		if got := deadlockKeys(t, text); len(got) != 0 {
			t.Errorf("%s: predicted %q", name, got)
		}
	}
}
