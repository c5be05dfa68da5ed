package predict

import (
	"sort"

	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// Stolen is a stolen partner a trace predicts: Stranded and Partner, a
// send and its receive on an unbuffered channel, were matched in the
// recorded run; Thief, another goroutine's operation of Stranded's
// direction on that channel, takes Partner first in another schedule,
// and Stranded then blocks forever.
type Stolen struct{ Thief, Stranded, Partner int32 }

// Events returns the stolen partner's events in the order of its pattern
// (the thief, the stranded operation).
func (s Stolen) Events() []int32 { return []int32{s.Thief, s.Stranded} }

// Stolens returns the stolen partners of gr's trace: on an unbuffered
// channel, the k-th send and the k-th receive are matched (as ptg
// matches them); for each such pair and each matched operation of the
// same direction as one of them by a third goroutine, that one is a
// thief and the other of its direction the stranded operation when
// every operation that could complete the stranded one (another of the
// partner's direction, or a close) is a later event of the stranded
// operation's own goroutine, which never comes once it blocks (a relay
// that replies on the channel it took its job from). Happens-before is
// not enough: an operation ordered after the stranded one only through
// the channel's recorded matches may take it once the matches change.
// Whether the state before the three operations is reachable is for
// schedule.Generator.Stolen to decide.
func Stolens(gr *ptg.Graph) []Stolen {
	tr := gr.Tr
	chans, order, _ := chanIndex(tr)
	var out []Stolen
	for _, obj := range order {
		c := chans[obj]
		if c.buffered {
			continue
		}
		sends, recvs := opsByG(gr, c.send, c.close), opsByG(gr, c.recv, c.close)
		n := min(len(c.send), len(c.recv))
		for k := 0; k < n; k++ {
			s, r := c.send[k], c.recv[k]
			// A receiver stranded by a competing receiver, then a sender
			// stranded by a competing sender.
			if sends.onlyAfter(gr, r, s) {
				out = thieves(gr, out, r, s, c.recv[:n])
			}
			if recvs.onlyAfter(gr, s, r) {
				out = thieves(gr, out, s, r, c.send[:n])
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Thief != out[j].Thief {
			return out[i].Thief < out[j].Thief
		}
		return out[i].Stranded < out[j].Stranded
	})
	return out
}

// gOps sums up a channel's operations of one direction and its closes
// (the operations that could complete one of the other direction) by
// goroutine: how many, and the first's place in its goroutine.
type gOps struct {
	total int
	count map[int32]int
	first map[int32]int32
}

func opsByG(gr *ptg.Graph, ops, closes []int32) gOps {
	o := gOps{count: map[int32]int{}, first: map[int32]int32{}}
	for _, list := range [][]int32{ops, closes} {
		for _, e := range list {
			g := gr.Tr.Events[e].G
			if f, ok := o.first[g]; !ok || gr.Local[e] < f {
				o.first[g] = gr.Local[e]
			}
			o.count[g]++
			o.total++
		}
	}
	return o
}

// onlyAfter reports whether every operation of o but partner is a later
// event of stranded's goroutine: partner is the only one of another
// goroutine, and the goroutine's own come after stranded.
func (o gOps) onlyAfter(gr *ptg.Graph, stranded, partner int32) bool {
	g := gr.Tr.Events[stranded].G
	if o.total-o.count[g] != 1 || gr.Tr.Events[partner].G == g {
		return false
	}
	f, ok := o.first[g]
	return !ok || f > gr.Local[stranded]
}

// thieves appends to out the thieves among same (the matched operations
// of stranded's direction) of partner, stranded's match: those of a
// third goroutine.
func thieves(gr *ptg.Graph, out []Stolen, stranded, partner int32, same []int32) []Stolen {
	evs := gr.Tr.Events
	ga, gb := evs[stranded].G, evs[partner].G
	for _, t := range same {
		if gt := evs[t].G; t != stranded && gt != ga && gt != gb {
			out = append(out, Stolen{Thief: t, Stranded: stranded, Partner: partner})
		}
	}
	return out
}

// stolens predicts the stolen partners of gr for the stolen-partner
// pattern among pats, each with the schedule that stops the three
// goroutines before their operations and ends with the thief taking the
// partner and the stranded operation, and passes each to keep.
func stolens(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var p *pattern.Pattern
	for _, q := range pats {
		if q.Leak && q.Stolen {
			p = q
			break
		}
	}
	if p == nil {
		return
	}
	t := newTries(gr, stop, st, keep, 0)
	for _, s := range Stolens(gr) {
		if !t.try(p, s.Events(), func() (schedule.Schedule, error) { return gen.Stolen(s.Thief, s.Stranded, s.Partner) }) {
			return
		}
	}
}
