package ptg_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/internal/oracle"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// TestClockChunks checks POR against the oracle, and Clock against VC,
// with clock snapshots cut into chunks of one and two goroutines: the
// other tests' traces have at most a handful of goroutines, which fit in
// one chunk of the default size, and a row of several chunks (shared
// between snapshots, all-zero chunks skipped by joins) would go untested.
func TestClockChunks(t *testing.T) {
	for _, shift := range []uint{0, 1} {
		restore := ptg.SetMaxChunkShift(shift)
		rng := rand.New(rand.NewPCG(7, uint64(shift)))
		n := 600
		if testing.Short() {
			n = 100
		}
		for i := 0; i < n; i++ {
			tr := gen.Small(rng, gen.SmallOptions{Goroutines: 3 + i%5, MaxEvents: 16 + i%12})
			gr := ptg.Build(tr)
			if len(gr.Warn) > 0 {
				t.Fatalf("shift %d, trace %d: warnings on a valid trace: %v\n%s", shift, i, gr.Warn, gen.Describe(tr))
			}
			m := oracle.New(tr)
			ne := len(tr.Events)
			for a := 0; a < ne; a++ {
				for b := 0; b < ne; b++ {
					if got, want := gr.POR(int32(a), int32(b)), m.POR(a, b); got != want {
						t.Fatalf("shift %d, trace %d: POR(%d, %d) = %v, oracle %v\n%s", shift, i, a, b, got, want, gen.Describe(tr))
					}
				}
				c := gr.Clock(int32(a))
				for h := int32(0); h < int32(gr.NG); h++ {
					if h != tr.Events[a].G && c.At(h) != gr.VC(int32(a), h) {
						t.Fatalf("shift %d, trace %d: Clock(%d).At(%d) = %d, VC %d", shift, i, a, h, c.At(h), gr.VC(int32(a), h))
					}
				}
			}
		}
		restore()
	}
}

// TestClockMemory guards the memory of clock snapshots where a test
// funnels many goroutines' messages through one (golang-set's
// Test_IterConcurrent: a thousand senders, a receiver that forwards each
// value to the test's goroutine): each receive raises one component of
// the receiver's clock, and each snapshot must cost a row of chunk
// numbers and a chunk or two, not a clock of every goroutine.
func TestClockMemory(t *testing.T) {
	const senders, rounds = 512, 20
	var b strings.Builder
	for s := range senders {
		fmt.Fprintf(&b, "m fork s%d\n", s)
	}
	b.WriteString("m fork r\n")
	for range rounds {
		for s := range senders {
			fmt.Fprintf(&b, "s%d send c%d cap=1\nr recv c%d cap=1\nr send out\nm recv out\n", s, s, s)
		}
	}
	gr := build(t, b.String())
	if len(gr.Warn) > 0 {
		t.Fatalf("warnings: %v", gr.Warn[0])
	}
	snaps := ptg.Snapshots(gr)
	if snaps < senders*rounds {
		t.Fatalf("%d snapshots, want at least one per receive (%d)", snaps, senders*rounds)
	}
	dense := snaps * 4 * gr.NG
	got := ptg.ClockBytes(gr)
	// A row is 4 bytes per chunk of 32 goroutines (68 bytes here), a
	// changed chunk 128 bytes; dense, a snapshot is 2 KiB. Measured: 236.
	t.Logf("%d snapshots, %d bytes each (dense %d)", snaps, got/snaps, dense/snaps)
	if per := got / snaps; per > 300 {
		t.Errorf("clock snapshots take %d bytes each (%d in all, %d dense), want at most 300", per, got, dense)
	}
	// Spot-check the clocks: the test's goroutine knows every send
	// received before its last receive.
	last := int32(len(gr.Tr.Events) - 1)
	for s := int32(1); s <= senders; s++ {
		if gr.VC(last, s) == 0 {
			t.Fatalf("the last receive does not know sender %s", gr.Tr.Goroutines[s])
		}
	}
}
