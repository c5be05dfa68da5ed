package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

func avByID(t *testing.T, id string) *pattern.Pattern {
	t.Helper()
	av, _ := pattern.Builtin("av")
	for _, p := range av {
		if p.ID() == id {
			return p
		}
	}
	t.Fatalf("no pattern %s", id)
	return nil
}

// groupAll groups fs in several orders and returns, for each finding (by
// its index in fs), the lead it got and its Grouped count, failing when
// two orders disagree.
func groupAll(t *testing.T, fs []Finding) (leads []string, grouped []int) {
	t.Helper()
	perm := make([]int, len(fs))
	for i := range perm {
		perm[i] = i
	}
	for n := 0; n < 2*len(fs)+2; n++ {
		in := make([]Finding, len(fs))
		for k, i := range perm {
			in[k] = fs[i]
		}
		group(in)
		l, g := make([]string, len(fs)), make([]int, len(fs))
		for k, i := range perm {
			l[i], g[i] = in[k].Lead, in[k].Grouped
		}
		if leads == nil {
			leads, grouped = l, g
		} else if strings.Join(l, "|") != strings.Join(leads, "|") {
			t.Errorf("order %v: leads %q, another order %q", perm, l, leads)
		}
		perm = append(perm[1:], perm[0])
		if len(perm) > 2 && n%2 == 0 {
			perm[n%(len(perm)-1)], perm[n%(len(perm)-1)+1] = perm[n%(len(perm)-1)+1], perm[n%(len(perm)-1)]
		}
	}
	return leads, grouped
}

// TestGroupLeadDependence: of a bug's findings, one whose dependence
// holds leads before one reported for its effect alone, whatever the
// order, so that the controls withdrawing the latter's effect in some
// runs (it is then no report at all) do not change the lead and its
// message. These are retryloop's findings: the av/RWR at retry.go:32:7,
// 41:4, 41:4 led in the runs where it kept its effect (61 of 74 runs of
// session 38) and the av/RWR at 32:7, 41:4, 45:7 in the others; the
// av/WWR at 41:4, 41:4, 45:7, whose stale read-back holds (judged for its
// pair beside its effect, or for its report when a control withdrew its
// effect), leads in both. With no dependence in the group, the first in
// the source leads as before; and a dependence does not put an
// atomic-set violation before an atomicity violation (fewer events first).
func TestGroupLeadDependence(t *testing.T) {
	const fail = "test fails: retry_test.go:38: two failures tripped the breaker 2 times, want at most 1"
	mk := func(id, fails string, sites ...string) Finding {
		p := avByID(t, id)
		return Finding{
			Package: "subjects/retryloop", Test: "TestShared",
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, len(sites)), Sites: sites, Key: pattern.Key(p, sites)},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: fails == "", Consequence: fails},
			Objects: []string{"Breaker.recent#1", "Breaker.recent#1", "Breaker.recent#1"},
		}
	}
	pair := func(f Finding) Finding {
		f.dependPair = [2]string{"retryloop/retry.go:41:4", "retryloop/retry.go:45:7"}
		if f.Verdict.Passed {
			f.Dependence = "stale read-back: the value read back at retry.go:45 is another goroutine's, not the unit's own write at retry.go:41, and it is used at retry.go:45"
		}
		return f
	}
	rwr1 := mk("av/RWR", fail, "retryloop/retry.go:32:7", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4")
	rwr2 := mk("av/RWR", fail, "retryloop/retry.go:32:7", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7")
	// The av/RWR at the WWR's sites holds it in the group by sitesKey
	// when the WWR's replay passed (TestGroupSameSites).
	rwr3 := mk("av/RWR", fail, "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7")
	withdrawn := rwr1
	withdrawn.Control = "the only serial order that can run fails the same way"
	for _, run := range []struct {
		name string
		fs   []Finding
	}{
		{"every member fails", []Finding{rwr1, rwr2, rwr3, pair(mk("av/WWR", fail, "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"))}},
		{"the first RWR's effect withdrawn", []Finding{withdrawn, rwr2, rwr3, pair(mk("av/WWR", fail, "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"))}},
		{"the WWR's replay passed", []Finding{rwr1, rwr2, rwr3, pair(mk("av/WWR", "", "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"))}},
	} {
		leads, _ := groupAll(t, run.fs)
		if leads[3] != "" {
			t.Errorf("%s: the WWR's lead %q, want none: it leads", run.name, leads[3])
		}
		for i, l := range leads[:3] {
			if run.fs[i].WithoutEffect() {
				continue
			}
			if l != "retryloop/retry.go:41:4" {
				t.Errorf("%s: finding %d's lead %q, want the WWR at retry.go:41:4", run.name, i, l)
			}
		}
	}
	// No dependence in the group: the first in the source.
	leads, grouped := groupAll(t, []Finding{rwr2, mk("av/RWR", fail, "retryloop/retry.go:41:4", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"), rwr1})
	if leads[2] != "" || grouped[2] != 2 || leads[0] != "retryloop/retry.go:32:7" || leads[1] != "retryloop/retry.go:32:7" {
		t.Errorf("without a dependence: leads %q, grouped %v; want the RWR at 32:7, 41:4, 41:4 to lead", leads, grouped)
	}
	// Two members whose dependence holds, at one site: the one whose
	// replay showed the effect leads (jigsaw.go:36: the av/RWW whose
	// replay panics in slices.Delete before its sibling's lost write),
	// and only at one site: the first in the source still leads one
	// with an effect at a later site.
	jig := func(fails string, sites ...string) Finding {
		p := avByID(t, "av/RWW")
		f := Finding{
			Package: "subjects/jigsaw", Test: "TestTwoDispatchers",
			Anomaly: predict.Anomaly{Pattern: p, Events: make([]int32, 3), Sites: sites, Key: pattern.Key(p, sites)},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: fails == "", Consequence: fails},
			Objects: []string{"Queue.items#1", "Queue.items#1", "Queue.items#1"},
		}
		f.dependPair = [2]string{"jigsaw/jigsaw.go:36:11", "jigsaw/jigsaw.go:43:4"}
		if fails == "" {
			f.Dependence = "lost write"
		}
		return f
	}
	const panics = "panic: runtime error: slice bounds out of range at slices.go:223"
	lost := jig("", "jigsaw/jigsaw.go:36:11", "jigsaw/jigsaw.go:22:4", "jigsaw/jigsaw.go:43:4")
	removed := jig(panics, "jigsaw/jigsaw.go:36:11", "jigsaw/jigsaw.go:43:4", "jigsaw/jigsaw.go:43:4")
	leads, _ = groupAll(t, []Finding{lost, removed})
	if leads[0] != "jigsaw/jigsaw.go:36:11" || leads[1] != "" {
		t.Errorf("two at one site: leads %q, want the one that panics to lead", leads)
	}
	later := jig(panics, "jigsaw/jigsaw.go:37:2", "jigsaw/jigsaw.go:43:4", "jigsaw/jigsaw.go:43:4")
	leads, _ = groupAll(t, []Finding{lost, later})
	if leads[0] != "" || leads[1] != "jigsaw/jigsaw.go:36:11" {
		t.Errorf("an effect at a later site: leads %q, want the first in the source to lead", leads)
	}
	// An atomic-set violation with a dependence does not lead an
	// atomicity violation reported for its effect.
	asv, _ := pattern.Builtin("asv")
	var p4 *pattern.Pattern
	for _, p := range asv {
		if len(p.T) == 4 && p4 == nil {
			p4 = p
		}
	}
	sites := []string{"retryloop/retry.go:41:4", "retryloop/retry.go:45:19", "retryloop/retry.go:41:4", "retryloop/retry.go:45:7"}
	set := Finding{
		Package: "subjects/retryloop", Test: "TestShared",
		Anomaly: predict.Anomaly{Pattern: p4, Events: make([]int32, 4), Sites: sites, Key: pattern.Key(p4, sites)},
		Verdict: replay.Verdict{Verdict: replay.Reproduced, Consequence: fail},
	}
	set.dependPair = [2]string{"retryloop/retry.go:41:4", "retryloop/retry.go:45:7"}
	leads, _ = groupAll(t, []Finding{set, rwr2})
	if leads[1] != "" || leads[0] != "retryloop/retry.go:32:7" {
		t.Errorf("an asv with a dependence beside an av with an effect: leads %q, want the av to lead", leads)
	}
}

// shopSchedule builds a replayed schedule of shop's two goroutines: g1
// runs Buy (a locked check at shop.go:19 and debit at :22), g2 Deliver's
// unlocked read and write at :29. steps are "g op site" (op r, w, L, U);
// the anomaly's steps are those marked with a trailing "*".
func shopSchedule(lock string, steps ...string) *trace.Schedule {
	s := &trace.Schedule{}
	for i, st := range steps {
		f := strings.Fields(st)
		step := trace.Step{G: f[0], Site: "shop/shop.go:" + f[2], Obj: "Shop.stock#1"}
		switch f[1] {
		case "r":
			step.Op = trace.Read
		case "w":
			step.Op = trace.Write
		case "L":
			step.Op, step.Obj = trace.Lock, lock
		case "U":
			step.Op, step.Obj = trace.Unlock, lock
		}
		if len(f) > 3 && f[3] == "*" {
			s.Anomaly = append(s.Anomaly, i)
		}
		s.Steps = append(s.Steps, step)
	}
	return s
}

// TestGroupUnlocked: findings of one test whose interleavings exist only
// because the same accesses hold no lock, the other side's accesses one
// critical section, are one bug (unlockedKeys), whatever the order. These
// are shop's: the av/RWW at shop.go:19:7 (Deliver's unlocked write inside
// Buy's locked check and debit) fails the test; the av/RWW at 29:4
// (Buy's debit inside Deliver's read and write) passed in 1 of 7 runs of
// session 38 and was a second report for its dependence. Two independent
// bugs stay two: a check-then-act across two critical sections of the
// lock (a locked writer breaks it too), the same unlocked site beside
// another lock, another unlocked site, or two unlocked sides (airline's).
func TestGroupUnlocked(t *testing.T) {
	rww := avByID(t, "av/RWW")
	const fail = "test fails: shop_test.go:31: stock = 7, want 12"
	mk := func(fails string, s *trace.Schedule, sites ...string) Finding {
		f := Finding{
			Package: "subjects/shop", Test: "TestShopping",
			Anomaly:  predict.Anomaly{Pattern: rww, Events: make([]int32, len(sites)), Sites: sites, Key: pattern.Key(rww, sites)},
			Verdict:  replay.Verdict{Verdict: replay.Reproduced, Passed: fails == "", Consequence: fails},
			Objects:  []string{"Shop.stock#1", "Shop.stock#1", "Shop.stock#1"},
			Schedule: s,
		}
		if fails == "" {
			f.Dependence = "read-modify-write"
			f.dependPair = [2]string{sites[0], sites[2]}
		}
		return f
	}
	buy := mk(fail, shopSchedule("Shop.mu#1", "g1 L 17:8", "g1 r 19:7 *", "g2 r 29:4", "g2 w 29:4 *", "g1 w 22:4 *", "g1 U 18:14"),
		"shop/shop.go:19:7", "shop/shop.go:29:4", "shop/shop.go:22:4")
	// Buy's replay failed; judged for its pair beside its effect, its
	// check at :19 decides its debit at :22.
	buy.dependPair = [2]string{"shop/shop.go:19:7", "shop/shop.go:22:4"}
	deliver := mk("", shopSchedule("Shop.mu#1", "g2 r 29:4 *", "g1 L 17:8", "g1 r 19:7", "g1 w 22:4 *", "g1 U 18:14", "g2 w 29:4 *"),
		"shop/shop.go:29:4", "shop/shop.go:22:4", "shop/shop.go:29:4")
	if k1, k2 := unlockedKeys(&buy), unlockedKeys(&deliver); len(k1) != 1 || len(k2) != 1 || k1[0] != k2[0] {
		t.Fatalf("keys %q and %q; want one, the same", k1, k2)
	}
	leads, grouped := groupAll(t, []Finding{buy, deliver})
	if leads[0] != "" || leads[1] != "shop/shop.go:19:7" || grouped[0] != 1 {
		t.Errorf("leads %q, grouped %v; want Buy's RWW at 19:7 to lead Deliver's", leads, grouped)
	}
	// Two independent bugs: each stays its own report beside Deliver's.
	split := mk("", shopSchedule("Shop.mu#1", "g1 L 17:8", "g1 r 19:7 *", "g1 U 18:14", "g2 r 29:4", "g2 w 29:4 *", "g1 L 21:8", "g1 w 22:4 *", "g1 U 23:14"),
		"shop/shop.go:19:7", "shop/shop.go:29:4", "shop/shop.go:22:4")
	otherLock := mk("", shopSchedule("Shop.other#1", "g1 L 17:8", "g1 r 19:7 *", "g2 r 29:4", "g2 w 29:4 *", "g1 w 22:4 *", "g1 U 18:14"),
		"shop/shop.go:19:7", "shop/shop.go:29:4", "shop/shop.go:22:4")
	otherSite := mk("", shopSchedule("Shop.mu#1", "g2 r 31:4 *", "g1 L 17:8", "g1 r 19:7", "g1 w 22:4 *", "g1 U 18:14", "g2 w 31:4 *"),
		"shop/shop.go:31:4", "shop/shop.go:22:4", "shop/shop.go:31:4")
	bothFree := mk("", shopSchedule("Shop.mu#1", "g2 r 31:4 *", "g1 r 24:7", "g1 w 24:4 *", "g2 w 31:4 *"),
		"shop/shop.go:31:4", "shop/shop.go:24:4", "shop/shop.go:31:4")
	if k := unlockedKeys(&split); k != nil {
		t.Errorf("a locked side in two critical sections has unlocked keys %q", k)
	}
	if k := unlockedKeys(&bothFree); k != nil {
		t.Errorf("two unlocked sides have unlocked keys %q", k)
	}
	// An unlocked side at two sites (a read at :27 and Deliver's write
	// at :29, another method's unlocked read-modify-write; bufwriter's
	// fast path) is tied to one that shows only the write at :29, each
	// side's other accesses elsewhere.
	wide := mk("", shopSchedule("Shop.mu#1", "g2 r 27:4 *", "g1 L 17:8", "g1 w 22:4 *", "g1 U 18:14", "g2 w 29:4 *"),
		"shop/shop.go:27:4", "shop/shop.go:22:4", "shop/shop.go:29:4")
	if k := unlockedKeys(&wide); len(k) != 2 {
		t.Errorf("an unlocked side at two sites: keys %q, want two", k)
	}
	leads, _ = groupAll(t, []Finding{deliver, wide})
	if leads[0] != "shop/shop.go:27:4" || leads[1] != "" {
		t.Errorf("an unlocked side at :27 and :29 beside one at :29: leads %q, want the first in the source to lead", leads)
	}
	for name, f := range map[string]Finding{"two critical sections": split, "another lock": otherLock, "another unlocked site": otherSite, "both unlocked": bothFree} {
		// The same pair as Deliver's would tie them by its lines, and
		// a lead at its line by that line (group's atLine): give each
		// a pair of its own, and no lead at :29.
		f.dependPair = [2]string{"shop/shop.go:40:1", "shop/shop.go:41:1"}
		leads, _ := groupAll(t, []Finding{deliver, f})
		if leads[0] != "" || leads[1] != "" {
			t.Errorf("%s: grouped with Deliver's RWW (leads %q)", name, leads)
		}
	}
}

// TestGroupOutrun: the two views of one method's non-atomic
// check-then-act, two calls of it racing, are one bug (outrunKey),
// whatever the order. These are lockfree's (v0.0.4) stack.go:98 av (a
// Push's `Full()` read of size at :98 decides its add at :47, another
// Push's add at :47 between) and stack.go:46 asv-10 (a Push's CAS at :46,
// another Push's `Full()` at :98 and head read at :44, then the first
// Push's add at :47), each reported by default on main: their pairs,
// (:98, :47) and (:98, :44), differ. The av leads (fewer events). Not
// tied: the same read outrun by another method's write (a Pop's add at
// :64 between its CAS and the Push's check), a helper's read deciding the
// check-then-acts of two methods (each its own bug, however alike),
// another read of the same variable deciding, and events with no method
// activations.
func TestGroupOutrun(t *testing.T) {
	asvs, _ := pattern.Builtin("asv")
	asv10 := func() *pattern.Pattern {
		for _, p := range asvs {
			if p.ID() == "asv/asv-10" {
				return p
			}
		}
		t.Fatal("no asv-10")
		return nil
	}()
	const (
		push = "stack/stack.go:39:26" // LLStack.Push's region
		full = "stack/stack.go:97:26" // LLStack.Full's
		pop  = "stack/stack.go:55:26" // LLStack.Pop's
	)
	// in: the activations of an event of goroutine g (1, 2, …) that
	// ran in methods ms, outermost first: one call of each method per
	// goroutine, each with a begin event of its own.
	calls := map[string]int32{}
	in := func(g int, ms ...string) []predict.Frame {
		var out []predict.Frame
		for _, m := range ms {
			k := fmt.Sprint(g, m)
			if _, ok := calls[k]; !ok {
				calls[k] = int32(len(calls))
			}
			out = append(out, predict.Frame{Begin: calls[k], Site: m})
		}
		return out
	}
	mk := func(p *pattern.Pattern, pair [2]string, sites []string, objs []string, frames ...[]predict.Frame) Finding {
		f := Finding{
			Package: "github.com/amirylm/lockfree/stack", Test: "TestStack_Concurrency_Bytes",
			Anomaly:    predict.Anomaly{Pattern: p, Events: make([]int32, len(sites)), Sites: sites, Key: pattern.Key(p, sites), Frames: frames},
			Verdict:    replay.Verdict{Verdict: replay.Reproduced, Passed: true},
			Objects:    objs,
			Dependence: "check-then-act",
		}
		f.dependPair = pair
		return f
	}
	const size, head = "LLStack.size#1", "LLStack.head#1"
	av := mk(avByID(t, "av/RWR"), [2]string{"stack/stack.go:98:20", "stack/stack.go:47:18"},
		[]string{"stack/stack.go:98:20", "stack/stack.go:47:18", "stack/stack.go:47:18"},
		[]string{size, size, size},
		in(2, push, full), in(1, push), in(2, push))
	snapshot := mk(asv10, [2]string{"stack/stack.go:98:20", "stack/stack.go:44:19"},
		[]string{"stack/stack.go:46:27", "stack/stack.go:98:20", "stack/stack.go:44:19", "stack/stack.go:47:18"},
		[]string{head, size, head, size},
		in(1, push), in(2, push, full), in(2, push), in(1, push))
	if k1, ok1 := outrunKey(&av); !ok1 {
		t.Fatal("the av has no outrun key")
	} else if k2, ok2 := outrunKey(&snapshot); !ok2 || k1 != k2 {
		t.Fatalf("keys %q and %q (%v); want the same", k1, k2, ok2)
	}
	leads, grouped := groupAll(t, []Finding{snapshot, av})
	if leads[1] != "" || leads[0] != "stack/stack.go:98:20" || grouped[1] != 1 {
		t.Errorf("leads %q, grouped %v; want the av at stack.go:98 to lead the asv at :46", leads, grouped)
	}
	// Pop's window: Pop's CAS at :63, a Push's check at :98 and CAS
	// at :46, Pop's add at :64. The check was outrun by Pop's write,
	// not by another Push's.
	popWindow := mk(asv10, [2]string{"stack/stack.go:98:20", "stack/stack.go:46:27"},
		[]string{"stack/stack.go:63:37", "stack/stack.go:98:20", "stack/stack.go:46:27", "stack/stack.go:64:17"},
		[]string{head, size, head, size},
		in(1, pop), in(2, push, full), in(2, push), in(1, pop))
	// Another read of size deciding: Push checks `Empty()` at :103
	// (a second check of one variable) and is outrun by another
	// Push's add at :47.
	const empty = "stack/stack.go:102:26"
	otherRead := mk(avByID(t, "av/RWR"), [2]string{"stack/stack.go:103:20", "stack/stack.go:47:18"},
		[]string{"stack/stack.go:103:20", "stack/stack.go:47:18", "stack/stack.go:47:18"},
		[]string{size, size, size},
		in(2, push, empty), in(1, push), in(2, push))
	// No activations (code outside methods): no key.
	bare := snapshot
	bare.Anomaly.Frames = nil
	for name, f := range map[string]Finding{"another method's write": popWindow, "another read": otherRead, "no activations": bare} {
		if k, ok := outrunKey(&f); ok && name != "another read" {
			t.Errorf("%s: outrun key %q, want none", name, k)
		}
		leads, _ := groupAll(t, []Finding{av, f})
		if leads[0] != "" || leads[1] != "" {
			t.Errorf("%s: grouped with the av at :98 (leads %q)", name, leads)
		}
	}
	// Two distinct bugs on one variable through the same helpers:
	// Withdraw and Fee each check `a.low()` (a read of bal at :40)
	// and then call `a.sub(n)` (the write at :44). Two Withdraws racing
	// and two Fees racing are two check-then-acts, one in each method:
	// fixing one leaves the other.
	const withdraw, fee, low, sub = "bank/bank.go:10:20", "bank/bank.go:20:20", "bank/bank.go:39:20", "bank/bank.go:43:20"
	bank := func(m string) Finding {
		f := mk(avByID(t, "av/RWR"), [2]string{"bank/bank.go:40:9", "bank/bank.go:44:2"},
			[]string{"bank/bank.go:40:9", "bank/bank.go:44:2", "bank/bank.go:44:2"},
			[]string{"Account.bal#1", "Account.bal#1", "Account.bal#1"},
			in(2, m, low), in(1, m, sub), in(2, m, sub))
		f.Package, f.Test = "subjects/bank", "TestBank"
		return f
	}
	// Their sites and pair are the same, which ties them by sitesKey and
	// the pair's key as before (a helper's lines name no method); the
	// outrun keys do not add a tie of their own.
	w, fe := bank(withdraw), bank(fee)
	kw, okw := outrunKey(&w)
	kf, okf := outrunKey(&fe)
	if !okw || !okf || kw == kf {
		t.Errorf("Withdraw's and Fee's outrun keys %q (%v) and %q (%v); want two, apart", kw, okw, kf, okf)
	}
}
