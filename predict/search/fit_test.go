package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// refSkeletonTuples is the matcher's choice of skeletons as it was before
// fitSkels: every skeleton of a group's index (or of its element 0's bound
// object) tested at every node for ops, acting reads and object bindings.
func refSkeletonTuples(m *matcher) [][]*skeleton {
	var out [][]*skeleton
	var rec func(k int)
	rec = func(k int) {
		if k == len(m.gs) {
			out = append(out, slices.Clone(m.sk))
			return
		}
		g, ix, gr := m.gs[k], m.ixs[k], m.s.gr
		cand := ix.allSkels
		if o := m.objOf[g.sv[0]]; o >= 0 {
			cand = ix.skelByObj[o]
		}
	next:
		for _, si := range cand {
			sk := &ix.skels[si]
			c := sk.proto
			for e := range g.pos {
				if !matches(gr.Ev(c.flat[e]).Op, g.at[e], m.p) {
					continue next
				}
				if m.p.Acting && g.t != 0 && !gr.ActingRead(c.flat[e]) {
					continue next
				}
			}
			var newSV []int
			ok := true
			for e, v := range g.sv {
				if o := m.objOf[v]; o >= 0 {
					if o != c.objs()[e] {
						ok = false
						break
					}
					continue
				}
				if slices.Contains(m.objOf, c.objs()[e]) {
					ok = false
					break
				}
				m.objOf[v] = c.objs()[e]
				newSV = append(newSV, v)
			}
			if ok {
				m.sk[k] = sk
				rec(k + 1)
			}
			for _, v := range newSV {
				m.objOf[v] = -1
			}
		}
	}
	rec(0)
	return out
}

// TestFitSkelsMatchReference: the matcher, taking its candidates from the
// lists fitSkels filters once, chooses the same skeleton tuples in the
// same order as testing every skeleton at every node did, on every
// pattern (those of more than one group and variable above all: a
// variable bound by an earlier group, the same variable twice in one).
func TestFitSkelsMatchReference(t *testing.T) {
	pats := groupPatterns(t)
	more, err := pattern.Parse("asv/two atomic T=t1-t2-t2-t1 SV=s1-s2-s1-s2 AR=u1-u2-u2-u1 AT=r-w-w-r\n"+
		"asv/same atomic T=t1-t2-t1 SV=s1-s2-s1 AR=u1-u2-u1 AT=w-r-w\n"+
		// Three elements bound by group 0: the lists keyed by bytes.
		"asv/three atomic T=t1-t1-t2-t2-t2-t1 SV=s1-s2-s1-s2-s3-s3 AR=u1-u1-u2-u2-u2-u1 AT=w-w-r-r-r-w\n", "fit_test")
	if err != nil {
		t.Fatal(err)
	}
	pats = append(pats, more...)
	tuples, byStr, joined, conv := 0, 0, 0, 0
	check := func(name string, tr *trace.Trace) {
		gr := ptg.Build(tr)
		s := &searcher{gr: gr, shapes: map[string]*groupIndex{}, tries: map[string]int{}, done: map[string]bool{}, assigns: map[string]int{}, reps: map[string]*foldTable{}, repsByString: map[string][]int32{}}
		for _, p := range pats {
			if p.Lock || p.Leak {
				continue
			}
			gs := groupsOf(p)
			ixs := make([]*groupIndex, len(gs))
			for i, g := range gs {
				ixs[i] = s.index(p, g)
				ixs[i].skeletons(gr)
			}
			want := refSkeletonTuples(s.newMatcher(p, gs, ixs, false))
			m := s.newMatcher(p, gs, ixs, false)
			var got [][]*skeleton
			m.leaf = func() { got = append(got, slices.Clone(m.sk)) }
			m.classes(0)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%s: %s: %d skeleton tuples, want %d (or another order)", name, p.ID(), len(got), len(want))
			}
			tuples += len(got)
			if len(gs) > 1 && m.fits(1).byBoundStr != nil {
				byStr += len(got)
			}
			if m.join0 != nil {
				joined += len(got)
				if m.join0.converse {
					conv += len(got)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 100; i++ {
		check(fmt.Sprintf("small %d", i), gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%3, MaxEvents: 20 + i%30}))
	}
	check("large", gen.Large(gen.LargeOptions{Events: 20000, Goroutines: 6, Locations: 12, Locks: 3, ChannelDensity: 0.01, Seed: 4}))
	check("copies", copyTrace(t))
	if tuples < 1000 || byStr < 10 || joined < 1000 || conv < 100 {
		t.Fatalf("%d skeleton tuples in all, %d with lists keyed by bytes, %d through a join (%d a converse): the comparison compared too little", tuples, byStr, joined, conv)
	}
	t.Logf("%d skeleton tuples, %d with lists keyed by bytes, %d through a join (%d a converse)", tuples, byStr, joined, conv)
}

// copyTrace: two goroutines copy a buffer's elements in and out in units
// (as go-mplex's pipes do), one at one site per loop, in both orders: many
// skeletons of two and three elements on the same objects in both groups
// of a pattern, which the lists keyed by bytes and the joins serve.
func copyTrace(t *testing.T) *trace.Trace {
	var b strings.Builder
	b.WriteString(trace.TextHeader + "\n")
	b.WriteString("main fork g1 @m.go:1\nmain fork g2 @m.go:2\n")
	for i, g := range []string{"g1", "g2"} {
		fmt.Fprintf(&b, "%s begin\n", g)
		for round := 0; round < 3; round++ {
			for dir, op := range []string{"write", "read"} {
				fmt.Fprintf(&b, "%s region-begin Buf.Copy%d @b.go:%d\n", g, dir, 10*i+dir+1)
				for v := range 8 {
					if (round+i)%2 == 1 {
						v = 7 - v
					}
					fmt.Fprintf(&b, "%s %s buf%d @b.go:%d\n", g, op, v, 100+10*i+dir)
				}
				fmt.Fprintf(&b, "%s region-end Buf.Copy%d @b.go:%d\n", g, dir, 10*i+dir+5)
			}
		}
		fmt.Fprintf(&b, "%s end\n", g)
	}
	b.WriteString("main join g1 @m.go:3\nmain join g2 @m.go:3\n")
	tr, err := trace.ReadTrace(strings.NewReader(b.String()), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
