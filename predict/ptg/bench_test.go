package ptg_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// funnel is a trace of senders goroutines sending rounds times each to
// one receiver, which forwards every value to the test's goroutine
// (TestClockMemory's shape, golang-set's Test_IterConcurrent's).
func funnel(tb testing.TB, senders, rounds int) *trace.Trace {
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
	tr, err := trace.ReadTrace(strings.NewReader(b.String()), "funnel", trace.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// BenchmarkBuild builds the PTG of a funnel of a thousand goroutines and
// of a random trace of 8 with channels, then asks POR of random pairs:
// the clock snapshots' cost in time (Build, POR) and memory (B/op).
func BenchmarkBuild(b *testing.B) {
	for _, tc := range []struct {
		name string
		tr   *trace.Trace
	}{
		{"funnel1000", funnel(b, 1000, 25)},
		{"large8", gen.Large(gen.LargeOptions{Events: 200000, Goroutines: 8, ChannelDensity: 0.05, Seed: 1})},
		{"large200", gen.Large(gen.LargeOptions{Events: 200000, Goroutines: 200, ChannelDensity: 0.05, Seed: 1})},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				ptg.Build(tc.tr)
			}
		})
		b.Run(tc.name+"/POR", func(b *testing.B) {
			gr := ptg.Build(tc.tr)
			n := int32(len(tc.tr.Events))
			rng := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			k := 0
			for range b.N {
				if gr.POR(rng.Int32N(n), rng.Int32N(n)) {
					k++
				}
			}
			_ = k
		})
	}
}
