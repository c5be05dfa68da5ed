package schedule

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// condTrace: g1 waits on C (its Wait records an unlock of L, then, when
// it returns, the cond-wait and the lock of L again); main signals under
// L, then later takes L once more.
const condTrace = `
	main fork g1 @t.go:1    # 0
	g1 begin                # 1
	g1 lock L @t.go:2       # 2
	g1 unlock L @t.go:3     # 3
	main lock L @t.go:10    # 4
	main write x @t.go:11   # 5
	main cond-signal C @t.go:12 # 6
	main unlock L @t.go:13  # 7
	g1 cond-wait C @t.go:3  # 8
	g1 lock L @t.go:3       # 9
	g1 read x @t.go:4       # 10
	g1 unlock L @t.go:5     # 11
	main lock L @t.go:14    # 12
	main write x @t.go:15   # 13
	main unlock L @t.go:16  # 14
`

// TestCondWaitHoldsLock: Wait returns holding its Cond's lock, before the
// recorder gates the lock event that says so. No schedule may put
// another goroutine's acquisition between the cond-wait and that event:
// replay would hand the lock to a goroutine that cannot get it (a spin
// lock spins until the stall timeout).
func TestCondWaitHoldsLock(t *testing.T) {
	tr, err := gen.Parse(condTrace)
	if err != nil {
		t.Fatal(err)
	}
	gr := ptg.Build(tr)
	// main's write (13) between g1's cond-wait (8) and its reacquisition (9).
	if s, err := Generate(gr, []int32{8, 13, 9}, false); err == nil {
		t.Fatalf("schedule %v generated: main acquires L while g1 holds it since its cond-wait", s.Events())
	}
	bad := Schedule{Prefix: 8, Tail: []int32{8, 12, 13, 14, 9}}
	if err := Check(gr, bad, []int32{8, 13, 9}, false); err == nil || !strings.Contains(err.Error(), "held by g1") {
		t.Fatalf("Check of %v: %v, want: acquires L held by g1", bad.Events(), err)
	}
	// After g1's critical section, main may take L: cond-wait, then main's write.
	s, err := Generate(gr, []int32{8, 13}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(gr, s, []int32{8, 13}, false); err != nil {
		t.Fatalf("schedule %v: %v", s.Events(), err)
	}
	ev := s.Events()
	pos := map[int32]int{}
	for i, e := range ev {
		pos[e] = i
	}
	if pos[12] < pos[11] {
		t.Fatalf("schedule %v: main's lock (12) before g1's unlock (11)", ev)
	}
	// A schedule stopped between the cond-wait and the lock (prefix 9)
	// starts with g1 holding L.
	if err := Check(gr, Schedule{Prefix: 9, Tail: []int32{12, 13}}, []int32{13}, false); err == nil {
		t.Fatal("Check accepted main's lock right after the prefix ending with g1's cond-wait")
	}
}

// TestHeapSameSchedules: the simulation takes, at each step, the enabled
// event of least index. Looking at goroutines in order of their next
// events, with those waiting for an event or a lock asleep until it is
// taken or changes hands, gives the same schedules (and the same
// failures) as looking at every goroutine every step.
func TestHeapSameSchedules(t *testing.T) {
	defer func() { scanAll = false }()
	compared, found, resumed := 0, 0, 0
	for seed := uint64(1); seed <= 6; seed++ {
		tr := gen.Large(gen.LargeOptions{Events: 4000, Goroutines: 4 + 10*int(seed%3), Locations: 6, Locks: 1 + int(seed%2), ChannelDensity: 0.1 * float64(seed%3), Seed: seed})
		gr := ptg.Build(tr)
		// One generator for all the heap's schedules, as predict uses it:
		// the sleepers' bits one schedule leaves must not change the next.
		reused := NewGenerator(gr)
		evs := tr.Events
		rng := rand.New(rand.NewPCG(seed, 99))
		for try := 0; try < 150; try++ {
			a, b := int32(rng.IntN(len(evs))), int32(rng.IntN(len(evs)))
			if a > b {
				a, b = b, a
			}
			if evs[a].G == evs[b].G || !evs[a].Op.IsAccess() || !evs[b].Op.IsAccess() {
				continue
			}
			// Both orders, adjacent or not.
			for _, p := range [][]int32{{a, b}, {b, a}} {
				for _, adj := range []bool{false, true} {
					scanAll = true
					want, werr := NewGenerator(gr).Generate(p, adj)
					scanAll = false
					got, gerr := reused.Generate(p, adj)
					if b := slices.IndexFunc(append(slices.Clone(reused.st.evWait.w), reused.st.objWait.w...), func(w uint64) bool { return w != 0 }); b >= 0 {
						t.Fatalf("seed %d, %v adjacent %v: a sleeper's bit left set after the run (word %d)", seed, p, adj, b)
					}
					if fmt.Sprint(werr) != fmt.Sprint(gerr) || got.Prefix != want.Prefix || !slices.Equal(got.Tail, want.Tail) {
						t.Fatalf("seed %d, %v adjacent %v: got %v %v (err %v), want %v %v (err %v)", seed, p, adj, got.Prefix, got.Tail, gerr, want.Prefix, want.Tail, werr)
					}
					compared++
					resumed += reused.st.resumed
					reused.st.resumed = 0
					if werr == nil {
						found++
					}
				}
			}
		}
	}
	if found == 0 || found == compared {
		t.Fatalf("%d of %d instances have schedules: the comparison covers too little", found, compared)
	}
	if resumed == 0 {
		t.Fatal("no round resumed its previous run's steps: the comparison does not cover sim.resumable")
	}
	t.Logf("%d instances compared, %d with schedules, %d steps taken again by later rounds", compared, found, resumed)
}

// stopCloseTrace: g2's select loop takes g3's update (event 6), applies
// it, sees stop closed by g1 (event 11) at its stop case (event 12) and
// closes the update channel on its way out (event 13, after a write).
const stopCloseTrace = `
	g1 begin                       # 0
	g1 fork g2 @t.go:1             # 1
	g1 fork g3 @t.go:2             # 2
	g2 begin                       # 3
	g3 begin                       # 4
	g3 send u @t.go:30             # 5
	g2 recv u @t.go:11             # 6
	g2 lock m @t.go:12             # 7
	g2 write x @t.go:13            # 8
	g2 unlock m @t.go:14           # 9
	g3 end                         # 10
	g1 close stop @t.go:20         # 11
	g2 recv stop @t.go:10 ok=false # 12
	g2 write z @t.go:8             # 13
	g2 close u @t.go:9             # 14
	g2 end                         # 15
`

func TestStopCloseFirst(t *testing.T) {
	tr, err := gen.Parse(stopCloseTrace)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(ptg.Build(tr))
	sched, err := g.StopCloseFirst(11, 6, 12, 14, 5)
	if err != nil {
		t.Fatal(err)
	}
	// The round that took the send (events 6-9) does not run; the loop
	// goes on from its stop case.
	if want := []int32{11, 12, 13, 14, 5}; !slices.Equal(sched.Tail[len(sched.Tail)-5:], want) {
		t.Errorf("schedule %v, want it to end with %v", sched.Events(), want)
	}
	for _, e := range sched.Events() {
		if e >= 6 && e <= 9 {
			t.Errorf("schedule %v runs skipped event %d", sched.Events(), e)
		}
	}
	// Not a stop, case, stop case, close and send: refused.
	for _, args := range [][5]int32{
		{5, 6, 12, 14, 11}, // the send as the stop
		{11, 6, 13, 14, 5}, // a write as the stop case
		{11, 6, 12, 8, 5},  // a write as the close
		{11, 12, 6, 14, 5}, // the stop case before the select's case
	} {
		if _, err := g.StopCloseFirst(args[0], args[1], args[2], args[3], args[4]); err == nil {
			t.Errorf("StopCloseFirst%v: no error", args)
		}
	}
}
