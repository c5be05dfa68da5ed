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
		settle(start.Add(300*time.Millisecond), never, func() []gstate { dumps++; return tc.dump })
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
	settle(start.Add(2*time.Second), func() bool { calls++; return calls > 2 }, func() []gstate { dumps++; return busy })
	if dumps != 2 {
		t.Errorf("%d dumps in %v, want 2: settle went on after ended", dumps, time.Since(start))
	}
}
