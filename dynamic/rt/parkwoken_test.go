package rt

import "testing"

// TestParkWoken: a goroutine woken in its park that waits for mu to return
// is busy, not at its gate; one still parked is at its gate. The dumps are
// lottery's (replay's TestInterruptedPasses under load): g1.1, whose step
// had the turn, waited for mu in Cond.Wait's relock behind the clock's
// alarm (dropped from the dump as rt's own), and read as at its gate it
// left nothing busy: "every goroutine waits; step 22 cannot come".
func TestParkWoken(t *testing.T) {
	const (
		relock = "internal/sync.runtime_SemacquireMutex(0xcfc9bda2008?, 0xe0?, 0x486ac9?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n" +
			"internal/sync.(*Mutex).lockSlow(0x7b6f90)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n" +
			"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n" +
			"sync.(*Mutex).Lock(0xcfc9be24a90?)\n\t/usr/local/go/src/sync/mutex.go:46 +0x2c\n"
		notified = "sync.(*Cond).Wait(0x20?)\n\t/usr/local/go/src/sync/cond.go:72 +0x85\n"
		parked   = "sync.runtime_notifyListWait(0xcfc9bde8150, 0x0)\n\t/usr/local/go/src/runtime/sema.go:617 +0x1b3\n" +
			"sync.(*Cond).Wait(0x20?)\n\t/usr/local/go/src/sync/cond.go:71 +0x73\n"
		held = "sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"
	)
	var (
		parkWait = rtPrefix + "(*park).Wait(0xcfc9be063a0)\n\tpark.go:33 +0x16a\n"
		parkHold = rtPrefix + "(*park).hold(0xcfc9be063a0, 0xcfc9be063b0)\n\tpark.go:48 +0x1d\n"
		gate     = rtPrefix + "(*replayer).waitTurn(0xcfc9beae008, 0x15)\n\treplay.go:1320 +0x26\n" +
			rtPrefix + "(*replayer).take(0xcfc9beae008, 0xcfc9be42420, 0x6, 0x6, 0x1)\n\treplay.go:1046 +0x1ae\n" +
			rtPrefix + "(*replayer).turn(0xcfc9beae008, 0xcfc9be42420, 0x1, 0x6, 0x1)\n\treplay.go:896 +0x878\n" +
			rtPrefix + "gateRW(0xcfc9be2a230, 0x1, 0x6, 0x0)\n\treplay.go:557 +0x22b\n" +
			rtPrefix + "Lock({0x611db0, 0xcfc9be2a230}, 0x1)\n\tapi.go:183 +0x19a\n" +
			"subjects/lottery.(*Lottery).Buy(0xcfc9be2a230, {0x5fd5c6, 0x3})\n\t/src/lottery/lottery.go:22 +0x97\n" +
			"created by testing.(*T).Run in goroutine 1\n\t/usr/local/go/src/testing/testing.go:2101 +0x4c5"
	)
	for _, tc := range []struct {
		name, state, frames string
		want                gclass
	}{
		{"notified, waiting for mu", "sync.Mutex.Lock", relock + notified + parkWait, gBusy},
		{"parked", "sync.Cond.Wait", parked + parkWait, gGate},
		{"in a bubble, woken, waiting for mu", "sync.Mutex.Lock", held + parkWait, gBusy},
		{"in a bubble, held", "sync.Mutex.Lock", held + parkHold + parkWait, gGate},
	} {
		g, ok := parseGoroutine("goroutine 20 [" + tc.state + "]:\n" + tc.frames + gate)
		if !ok || g.class != tc.want {
			t.Errorf("%s: parsed as %+v, want class %d", tc.name, g, tc.want)
		}
	}
}
