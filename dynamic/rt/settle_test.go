package rt

import (
	"testing"
	"time"
)

// TestSettleWatcher: the replay's watcher parked on its ticker is rt's
// own and does not keep settle from quiet; a busy user goroutine does
// (until the deadline), as does the watcher while it runs.
func TestSettleWatcher(t *testing.T) {
	watcher, ok := parseGoroutine("goroutine 24 [chan receive]:\n" + rtPrefix + "(*replayer).watch(0xb46d0066008)\n\treplay.go:1182 +0x1c5\ncreated by " + rtPrefix + "startReplayFrom in goroutine 4\n\treplay.go:406 +0x117c")
	if !ok || !watcher.watcher {
		t.Fatalf("watcher parsed as %+v, want watcher", watcher)
	}
	running := watcher
	running.state = "runnable"
	user, ok := parseGoroutine("goroutine 7 [runnable]:\nexample.com/p.loop()\n\t/src/p/p.go:12 +0x1d\ncreated by example.com/p.Start in goroutine 1\n\t/src/p/p.go:30 +0x55")
	if !ok || user.class != gBusy {
		t.Fatalf("user goroutine parsed as %+v, want busy", user)
	}
	never := func() bool { return false }
	for name, tc := range map[string]struct {
		dump  []gstate
		quiet bool
	}{
		"idle watcher":    {[]gstate{watcher}, true},
		"running watcher": {[]gstate{running}, false},
		"busy user":       {[]gstate{watcher, user}, false},
	} {
		dumps := 0
		start := time.Now()
		settle(start.Add(300*time.Millisecond), never, 0, func() []gstate { dumps++; return tc.dump })
		if quiet := dumps == 3; quiet != tc.quiet {
			t.Errorf("%s: %d dumps in %v, want quiet %v (3 dumps)", name, dumps, time.Since(start), tc.quiet)
		}
	}
}

// TestSettleEnded: once ended says the wait is moot (the leak's partner
// ended), settle returns without waiting for busy goroutines.
func TestSettleEnded(t *testing.T) {
	busy := []gstate{{id: 7, state: "runnable", class: gBusy}}
	dumps := 0
	calls := 0
	start := time.Now()
	settle(start.Add(2*time.Second), func() bool { calls++; return calls > 2 }, 0, func() []gstate { dumps++; return busy })
	if dumps != 2 {
		t.Errorf("%d dumps in %v, want 2: settle went on after ended", dumps, time.Since(start))
	}
}

// TestSettleHeld: after the verdict, with the watcher gone, goroutines
// held at their gates for the one running alone (waitAlone) cannot move
// while that one blocks where only another goroutine can end its wait:
// pond's leak replay waited settle's whole bound for its held purger and
// worker. While the alone goroutine runs or sleeps, or with no alone
// goroutine named (the watcher may still end the hold), they count busy.
func TestSettleHeld(t *testing.T) {
	held, ok := parseGoroutine("goroutine 7 [sync.Cond.Wait]:\nsync.runtime_notifyListWait(0x3dae23074350, 0x5)\n\t/usr/local/go/src/runtime/sema.go:617 +0x1b3\nsync.(*Cond).Wait(0x5f02c0?)\n\t/usr/local/go/src/sync/cond.go:71 +0x73\n" +
		rtPrefix + "(*replayer).waitAlone(...)\n\treplay.go:1161\n" + rtPrefix + "(*replayer).turn(0x3dae23210008, 0x3dae23216280, 0xb6, 0x19, 0x1)\n\treplay.go:725 +0xad1\n" +
		"example.com/p.(*Pool).purge(0x3dae232180c0)\n\t/src/p/p.go:397 +0x33e\ncreated by example.com/p.New in goroutine 18\n\t/src/p/p.go:144 +0x4c6")
	if !ok || !held.held || held.class != gBusy {
		t.Fatalf("held goroutine parsed as %+v, want busy and held", held)
	}
	alone, ok := parseGoroutine("goroutine 22 [chan send]:\n" + rtPrefix + "Send[...](0x3dae23080230, {}, 0xa0)\n\tapi.go:683 +0x1b8\n" +
		"example.com/p.(*Pool).StopAndWaitFor.func1()\n\t/src/p/p.go:345 +0xa5\ncreated by example.com/p.(*Pool).StopAndWaitFor in goroutine 18\n\t/src/p/p.go:343 +0x198")
	if !ok || alone.class != gRecorded {
		t.Fatalf("alone goroutine parsed as %+v, want blocked in a recorded operation", alone)
	}
	sleeping := alone
	sleeping.class, sleeping.state = gSleep, "sleep"
	running := alone
	running.class, running.state = gBusy, "running"
	never := func() bool { return false }
	for name, tc := range map[string]struct {
		alone int64
		dump  []gstate
		quiet bool
	}{
		"alone blocked":         {22, []gstate{held, alone}, true},
		"no alone named":        {0, []gstate{held, alone}, false},
		"alone sleeping":        {22, []gstate{held, sleeping}, false},
		"alone running":         {22, []gstate{held, running}, false},
		"alone not in the dump": {22, []gstate{held}, false},
	} {
		dumps := 0
		start := time.Now()
		settle(start.Add(300*time.Millisecond), never, tc.alone, func() []gstate { dumps++; return tc.dump })
		if quiet := dumps == 3; quiet != tc.quiet {
			t.Errorf("%s: %d dumps in %v, want quiet %v (3 dumps)", name, dumps, time.Since(start), tc.quiet)
		}
	}
}
