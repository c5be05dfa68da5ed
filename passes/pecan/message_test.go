package pecan_test

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/passes/pecan"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// lostUpdate is account's lost deposit (RWW) as replay proves it: g1.1's
// write falls between g1's read and write of the target balance.
func lostUpdate(t *testing.T) check.Finding {
	t.Helper()
	pat := pattern.MustParse("av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w")[0]
	step := func(g, op, obj, site string) trace.Step {
		o, ok := trace.ParseOp(op)
		if !ok {
			t.Fatalf("op %q", op)
		}
		return trace.Step{G: g, Op: o, Obj: obj, Site: site, N: 1}
	}
	s := &trace.Schedule{Pattern: "av/RWW", Anomaly: []int{1, 4, 5}, Steps: []trace.Step{
		step("g1", "lock", "Account.mu#1", "account/account.go:47:11"),
		step("g1", "read", "Account.balance#2", "account/account.go:53:5"),
		step("g1.1", "begin", "", ""),
		step("g1.1", "read", "Account.balance#2", "account/account.go:28:9"),
		step("g1.1", "write", "Account.balance#2", "account/account.go:29:4"),
		step("g1", "write", "Account.balance#2", "account/account.go:53:5"),
	}}
	return check.Finding{
		Package: "subjects/account", Test: "TestTransferAndDeposit",
		Anomaly: predict.Anomaly{Pattern: pat, Events: []int32{8, 14, 15},
			Sites: []string{"account/account.go:53:5", "account/account.go:29:4", "account/account.go:53:5"}},
		Schedule:   s,
		Verdict:    replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: account_test.go:29: bob = 150, want 180"},
		Goroutines: []string{"g1", "g1.1", "g1"},
		Objects:    []string{"Account.balance#2", "Account.balance#2", "Account.balance#2"},
	}
}

// TestMessageStandsAlone: the one-line message carries the anomaly's
// events in the order they ran, so that a driver that drops the clip
// (golangci-lint) still shows the interleaving.
func TestMessageStandsAlone(t *testing.T) {
	f := lostUpdate(t)
	want := "g1 read Account.balance (account.go:53) → g1.1 write Account.balance (account.go:29) → g1 write Account.balance (account.go:53)"
	if got := pecan.Interleaving(f); got != want {
		t.Errorf("Interleaving:\n got %s\nwant %s", got, want)
	}
	msg := pecan.Message(f)
	if !strings.HasPrefix(msg, "atomicity violation on Account.balance: ") || !strings.HasSuffix(msg, "; "+want) || strings.Contains(msg, "\n") {
		t.Errorf("Message: %s", msg)
	}
	// Schedule order, not pattern order: the anomaly's events listed out
	// of order still come out as they ran.
	f.Schedule.Anomaly = []int{5, 1, 4}
	if got := pecan.Interleaving(f); got != want {
		t.Errorf("Interleaving with the events listed out of order:\n got %s\nwant %s", got, want)
	}
}
