// Package search finds the instances of access-anomaly patterns that a
// recorded trace, or a mutation of it, can realize.
//
// It is PECAN's pattern-directed search (section 5.2): it walks the PTG's
// indices (predict/ptg).
//
// A candidate must pass the mutation condition — the corrected Algorithm 1,
// l(i) ∩ l(j) = ∅ && !POR(v_i, v_j), generalized to any number of events:
//
//   - no event of the pattern happens before (POR) an event that the
//     pattern places earlier;
//   - wherever the pattern puts one goroutine's events between two events
//     of another goroutine's region, the locks the latter holds throughout
//     that gap (Algorithm 2's "some v_x between v_i and v_j": the gap must
//     not be covered by a lock the inserted event needs) do not conflict
//     with the inserted event's lockset, nor with the locks the inserted
//     goroutine holds throughout its own gap;
//   - for adjacent patterns (races), the two events' locksets do not conflict.
//
// These are necessary conditions of the hybrid model, so the search misses
// no real anomaly; the schedule generator decides each candidate exactly.
//
// Scale: events are grouped into classes — for one-event groups by
// (goroutine, object, site, op, lockset), for region groups by the sites,
// objects, ops and locksets of the matched events — so the lock condition is
// checked once per class combination, and the POR condition, monotone along
// program order, by binary search over a class's instances. Reports are
// unique per combination of source sites (pattern.Key): once one is
// confirmed its combination is skipped, and each combination gets a bounded
// number of tries.
package search

import (
	"runtime"
	"slices"

	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// Options bound the search.
type Options struct {
	// MaxTries is the number of candidate instances tried per site
	// combination before it is given up (0: 8).
	MaxTries int
	// PerClass is the number of partner instances tried per instance of
	// the first group within a class combination (0: 2).
	PerClass int
	// MaxAssign is the number of goroutine assignments examined per site
	// combination before it is given up as capped (0: 1024; negative: no
	// cap). It bounds traces where many goroutines run the same code.
	MaxAssign int
	// Stop, if set, is polled every few thousand steps; once it returns
	// true the search ends and Stats.Cut says so. Use it for deadlines.
	Stop func() bool
	// Prefer, if set, names the site combinations to search first (the
	// static analysis's candidates): every pattern is searched for them,
	// in order, before any pattern is searched for the others. It gets
	// the combination's sites in pattern order, and must not keep them.
	Prefer func(sites []int32) bool
}

// Candidate is one pattern instance proposed to the caller.
type Candidate struct {
	Pattern *pattern.Pattern
	Events  []int32 // pattern order
	Key     string
}

// Stats counts what the search did.
type Stats struct {
	Candidates int // instances proposed
	Confirmed  int // site combinations confirmed
	GaveUp     int // site combinations abandoned after MaxTries
	Unobserved int // instances without effect (see unobserved), not proposed
	KeysApart  int // instances on different keys of a map (see keysApart), not proposed
	Capped     int // site combinations abandoned after MaxAssign goroutine assignments
	// Folded counts the goroutine assignments not searched because
	// another assignment of goroutines with the same start-site chains
	// represents their site combination (symmetry.go).
	Folded int
	// RegionsCapped: the index of the atomic regions' access sequences
	// stopped at MaxRegionTuples; violations inside the rest are missed.
	RegionsCapped bool
	// Combinations counts the combinations of code (skeletons, one per
	// pattern group) examined: it does not grow with the number of
	// goroutines that run the same code.
	Combinations int
	// Cut is set when Stop ended the search early: the patterns from
	// CutAt on were searched partly or not at all.
	Cut   bool
	CutAt string // ID of the pattern being searched when Stop fired; "" while indexing the atomic regions
	// CutInPreferred: Stop fired while the preferred combinations
	// (Options.Prefer) were searched; if false and Cut, all of them were.
	CutInPreferred bool
}

// Add adds o, the stats of a later search of the same graph, to s: its
// counts, and its cut if s has none.
func (s *Stats) Add(o Stats) {
	s.Candidates += o.Candidates
	s.Confirmed += o.Confirmed
	s.GaveUp += o.GaveUp
	s.Unobserved += o.Unobserved
	s.KeysApart += o.KeysApart
	s.Capped += o.Capped
	s.Folded += o.Folded
	s.Combinations += o.Combinations
	s.RegionsCapped = s.RegionsCapped || o.RegionsCapped
	if !s.Cut && o.Cut {
		s.Cut, s.CutAt, s.CutInPreferred = true, o.CutAt, o.CutInPreferred
	}
}

// Run searches gr for instances of pats, in order, and calls try for each
// candidate; try reports whether it confirmed the candidate (e.g. found a
// schedule). Confirmed site combinations are not proposed again.
func Run(gr *ptg.Graph, pats []*pattern.Pattern, opt Options, try func(Candidate) bool) Stats {
	if opt.MaxTries <= 0 {
		opt.MaxTries = 8
	}
	if opt.PerClass <= 0 {
		opt.PerClass = 2
	}
	if opt.MaxAssign == 0 {
		opt.MaxAssign = 1024
	}
	// Lock-order and leak patterns are not access patterns: predict's
	// inversion and leak finders look for them.
	pats = slices.DeleteFunc(slices.Clone(pats), func(p *pattern.Pattern) bool { return p.Lock || p.Leak || p.Cond || p.WG || p.Relock || p.Order })
	// A pattern of the same shape as an earlier one (asv/asv-1..5 are
	// av's five) matches the same instances under the same key: searched
	// again, it proposed each of them a second time, and a finding's kind
	// was the first pattern's or the twin's by which replay of the two
	// reproduced (drainstatus: av/RWR in most runs, asv/asv-2 in some).
	// The first in order names them.
	for i := 0; i < len(pats); i++ {
		if slices.ContainsFunc(pats[:i], pats[i].SameShape) {
			pats = slices.Delete(pats, i, i+1)
			i--
		}
	}
	s := &searcher{gr: gr, opt: opt, try: try, tries: map[string]int{}, done: map[string]bool{}, assigns: map[string]int{}, reps: map[string]*foldTable{}, repsByString: map[string][]int32{}, shapes: map[string]*groupIndex{}}
	// Index every region-group shape in one pass over the regions.
	var gs []*group
	needShared := false
	for _, p := range pats {
		for _, g := range groupsOf(p) {
			switch {
			case len(g.pos) > 1:
				gs = append(gs, g)
			case sharedVar(p, g):
				needShared = true
			default:
				s.needAll = true
			}
		}
	}
	if needShared || slices.ContainsFunc(gs, func(g *group) bool { return g.shared }) {
		s.sharedObjs() // before the two indices below read it at once
	}
	if (needShared || s.needAll) && len(gs) > 0 && runtime.GOMAXPROCS(0) > 1 {
		// The one-event classes are built on another core meanwhile: the
		// two indices read the graph and write only their own index, and
		// the result is the one index would build on its own when the
		// first pattern needs it.
		done := make(chan struct{})
		go func() {
			defer close(done)
			if s.needAll {
				s.singleAll = s.buildSingles(false)
				if needShared {
					s.single = sharedOf(s.singleAll)
				}
			} else {
				s.single = s.buildSingles(true)
			}
		}()
		s.buildRegionGroups(gs)
		<-done
	} else {
		s.buildRegionGroups(gs)
	}
	phases := []int8{0}
	if opt.Prefer != nil {
		phases = []int8{1, -1}
	}
	for _, ph := range phases {
		s.phase = ph
		// Adjacent (race) patterns: first the instances that reverse the
		// recorded order — the recorded order was already seen to be harmless.
		for pass := 0; pass < 2; pass++ {
			for _, p := range pats {
				if s.cur = p; p.Adjacent && !s.stopped() {
					s.pattern(p, pass == 0)
				}
			}
		}
		for _, p := range pats {
			if s.cur = p; !p.Adjacent && !s.stopped() {
				s.pattern(p, false)
			}
		}
		if s.stats.Cut {
			s.stats.CutInPreferred = ph == 1
			break
		}
	}
	return s.stats
}

// stopNow polls opt.Stop now (for loops whose steps are costly) and
// latches its answer as stopped does.
func (s *searcher) stopNow() bool {
	if !s.stats.Cut && s.opt.Stop != nil && s.opt.Stop() {
		s.stats.Cut = true
		if s.cur != nil {
			s.stats.CutAt = s.cur.ID()
		}
	}
	return s.stats.Cut
}

// stopped polls opt.Stop at its first call and every 4096th after, and
// latches its answer.
func (s *searcher) stopped() bool {
	if s.stats.Cut {
		return true
	}
	s.steps++
	if s.opt.Stop != nil && (s.steps-1)&4095 == 0 && s.opt.Stop() {
		s.stats.Cut = true
		if s.cur != nil {
			s.stats.CutAt = s.cur.ID()
		}
	}
	return s.stats.Cut
}

type searcher struct {
	gr    *ptg.Graph
	opt   Options
	try   func(Candidate) bool
	tries map[string]int
	done  map[string]bool
	// assigns counts the goroutine assignments examined per site key.
	assigns   map[string]int
	chains    []int32               // start-site chain per goroutine, dense from 1 (foldChains), once needed
	chainBits int                   // bits of a chain in a foldCode
	reps      map[string]*foldTable // site key → its representatives by start-site chains
	// repsByString: foldKey → its representative's goroutine assignment,
	// for assignments whose foldCode does not fit in 64 bits.
	repsByString map[string][]int32
	steps        uint64
	cur          *pattern.Pattern // the pattern being searched
	stats        Stats
	shapes       map[string]*groupIndex
	single       *groupIndex // one-event classes of shared objects
	singleAll    *groupIndex // one-event classes of all objects, if a pattern needs them
	needAll      bool        // some pattern needs singleAll
	// phase: 1 searches only the combinations opt.Prefer names, -1 only
	// the others, 0 all.
	phase int8

	// The distinct accesses of all regions, in chunks: region r's items
	// are itemChunks[itemRange[3r]][itemRange[3r+1]:itemRange[3r+2]].
	itemChunks [][]item
	itemRange  []int32
	itemShared bool // the items are those of shared objects only

	shared []bool // object → two goroutines access it (sharedObjs), once needed

	fitCache map[fitKey]*fitSkels // fits's lists, shared by the patterns that agree on them
	bijoins  map[bijKey]*fitJoin  // joins of groups in bijection (matcher.join), for their converses
}
