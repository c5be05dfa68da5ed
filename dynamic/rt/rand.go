package rt

import (
	"hash/fnv"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"strings"
)

// Random numbers. math/rand's top-level functions draw from a generator
// seeded at random in each process (Go 1.20 on), and math/rand/v2's from
// the runtime's, so a test that picks its actions with rand.Intn from
// several goroutines (puddle's TestStress) takes another path in each
// replay of its recording. Two changes make the draws the same in a
// recording and its replays:
//
//   - The instrumenter turns a call of a top-level function of either
//     package (rand.Intn(n)) into the same method of the calling
//     goroutine's own generator (Rand1().Intn(n)), seeded by the
//     goroutine's name (g1.1.8): its draws do not depend on how the
//     goroutines interleave. A goroutine the recording has not seen
//     (init, TestMain, code run outside a test) draws from the global
//     generator.
//   - A process that records or replays seeds the global math/rand
//     generator as GODEBUG=randautoseed=0 does (Seed(1)), for the draws
//     of code not instrumented. A GODEBUG that already says randautoseed
//     is the user's, and stays.
//
// Either is a run `go test` could give: the draws are numbers a
// generator gives, though not the ones a plain run gives. Seed and
// generic functions (rand/v2's N) are left alone.
func init() {
	for _, k := range []string{EnvTrace, EnvTraceDir, EnvSchedule, EnvReplayList} {
		if getenv(k) != "" {
			seedRand()
			return
		}
	}
}

func seedRand() {
	v := os.Getenv("GODEBUG")
	if strings.Contains(v, "randautoseed=") {
		return
	}
	if v != "" {
		v += ","
	}
	os.Setenv("GODEBUG", v+"randautoseed=0")
}

// global1 and global2 draw from the packages' global generators.
var (
	global1 = rand.New(globalSource1{})
	global2 = randv2.New(globalSource2{})
)

type globalSource1 struct{}

func (globalSource1) Int63() int64    { return rand.Int63() }
func (globalSource1) Uint64() uint64  { return rand.Uint64() }
func (globalSource1) Seed(seed int64) {}

type globalSource2 struct{}

func (globalSource2) Uint64() uint64 { return randv2.Uint64() }

// randSeed is the seed of the goroutine named name.
func randSeed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte("pecanvet rand "))
	h.Write([]byte(name))
	return h.Sum64()
}

// randG returns the calling goroutine if the recording knows it.
func randG() *Goroutine {
	if !active.Load() {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	if rec == nil {
		return nil
	}
	return rec.known()
}

// Rand1 returns the calling goroutine's math/rand generator (see above).
func Rand1() *rand.Rand {
	g := randG()
	if g == nil {
		return global1
	}
	if g.rand1 == nil {
		g.rand1 = rand.New(rand.NewSource(int64(randSeed(g.name))))
	}
	return g.rand1
}

// Rand2 returns the calling goroutine's math/rand/v2 generator.
func Rand2() *randv2.Rand {
	g := randG()
	if g == nil {
		return global2
	}
	if g.rand2 == nil {
		s := randSeed(g.name)
		g.rand2 = randv2.New(randv2.NewPCG(s, s^0x9e3779b97f4a7c15))
	}
	return g.rand2
}
