package check

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// supersedes fills Event.Superseded from the replay's own trace, for the
// read-backs whose writes between, in the schedule, are all atomic adds
// (isAdd): a counter the unit added to and read back. static/depend's
// superseded excuses such a read-back whose value is only stored, when
// each goroutine that added between stores the same object at the same
// site later (istio's Cache.Set, which sets a gauge to the count).
func supersedes(f *Finding, evs []depend.Event, isAdd func(site string) bool, rt *replayTrace) {
	delta := func(site string) (int64, bool) { return 0, isAdd(site) }
	s, pairs, tr, pos := replayedReadBacks(f, evs, delta, rt)
	if tr == nil {
		return
	}
	// Judge may pair b with any earlier write of the unit of b's
	// variable: each must be a pair here (every write between it and b
	// an add), and a site counts only if it does for every one.
	of := map[int][]int{}
	for _, p := range pairs {
		of[p[1]] = append(of[p[1]], p[0])
	}
	for j, is := range of {
		n := 0
		for i := 0; i < j; i++ {
			if evs[i].Write && evs[i].Var == evs[j].Var && evs[i].Unit == evs[j].Unit && evs[i].Thread == evs[j].Thread {
				n++
			}
		}
		if n != len(is) {
			continue
		}
		var sites []string
		for k, i := range is {
			if s.Anomaly[i] >= len(pos) || s.Anomaly[j] >= len(pos) {
				sites = nil
				break
			}
			pa, pb := pos[s.Anomaly[i]], pos[s.Anomaly[j]]
			if pa < 0 || pb <= pa {
				sites = nil
				break
			}
			at := supersededAt(tr, pa, pb)
			if k == 0 {
				sites = at
			} else {
				sites = slices.DeleteFunc(sites, func(st string) bool { return !slices.Contains(at, st) })
			}
		}
		if len(sites) > 0 {
			evs[j].Superseded = sites
		}
	}
}

// supersededAt returns, for the read-back at event pb of the object its
// goroutine u wrote at event pa, the sites where each of u's writes after
// pb, up to u's next access of the object, is of an object that u reads
// at no later event and that each other goroutine that wrote the object
// between pa and pb writes at that site after u's write and after its
// own first access of the object following its last write there, which
// must be a read at pb's site. A value u stored and then read back itself
// (an id kept in a field, then used) is its read-back's value still.
func supersededAt(tr *trace.Trace, pa, pb int) []string {
	evs := tr.Events
	u, obj, site := evs[pb].G, evs[pb].Obj, evs[pb].Site
	last := map[int32]int{}
	for k := pa + 1; k < pb; k++ {
		if e := evs[k]; e.Obj == obj && e.G != u && writes(e.Op) {
			last[e.G] = k
		}
	}
	if len(last) == 0 {
		return nil
	}
	// Each adder's read of the count after its add: its next access of
	// the object, at the read-back's site.
	reread := map[int32]int{}
	for g, w := range last {
		for k := w + 1; k < len(evs); k++ {
			if e := evs[k]; e.G == g && e.Obj == obj {
				if e.Site == site && reads(e.Op) && !writes(e.Op) {
					reread[g] = k
				}
				break
			}
		}
		if _, ok := reread[g]; !ok {
			return nil
		}
	}
	// u's writes after pb, up to its next access of the object, by site.
	var order []int32
	at := map[int32][]int{}
	for k := pb + 1; k < len(evs); k++ {
		e := evs[k]
		if e.G != u {
			continue
		}
		if e.Obj == obj {
			break
		}
		if !writes(e.Op) || e.Obj < 0 || e.Site < 0 {
			continue
		}
		if _, ok := at[e.Site]; !ok {
			order = append(order, e.Site)
		}
		at[e.Site] = append(at[e.Site], k)
	}
	// superseded: every adder writes k's object at k's site after k and
	// after its read, and u never reads that object after k (what it
	// stored is not read back by it, the adder's value either).
	superseded := func(k int) bool {
		e := evs[k]
		for m := k + 1; m < len(evs); m++ {
			if c := evs[m]; c.G == u && c.Obj == e.Obj && reads(c.Op) {
				return false
			}
		}
		for g, r := range reread {
			found := false
			for m := max(k, r) + 1; m < len(evs) && !found; m++ {
				c := evs[m]
				found = c.G == g && c.Obj == e.Obj && c.Site == e.Site && writes(c.Op)
			}
			if !found {
				return false
			}
		}
		return true
	}
	var out []string
	for _, st := range order {
		all := true
		for _, k := range at[st] {
			all = all && superseded(k)
		}
		if all {
			out = append(out, tabName(tr.Sites, st))
		}
	}
	return out
}
