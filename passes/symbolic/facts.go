package symbolic

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Summary is the fact exported for an exported function or method (of an
// exported type): what a call of it does, for callers in other packages.
// Events are the distinct accesses and synchronization operations of its
// flattened sequence (locks show only in Held and the lock effect),
// unordered, at most MaxFactEvents of them; sites are "file:line:col" as
// the defining package's FileSet renders them.
type Summary struct {
	Events    []SummaryEvent
	Acquires  []Held   // locks held on return, acquired by the function
	Releases  []string // locks the function may release without acquiring them
	Truncated bool     // events were dropped (MaxFactEvents or MaxFlat)
}

// SummaryEvent is one event of a Summary. Held's CS ids are relative to
// the summary.
type SummaryEvent struct {
	Op   Op
	Loc  string
	Site string
	Held []Held
	// Repeats is set when the event may occur more than once in one call
	// (it is in a loop, or several occurrences were merged). Events are
	// listed in order of first occurrence; see Result.MayPrecede.
	Repeats bool
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

// String lists the events compactly (used by analysistest fact checks):
// "summary: read p.T.n, write p.T.n [held p.T.mu]; acquires p.T.mu".
func (s *Summary) String() string {
	var b strings.Builder
	b.WriteString("summary:")
	for i, e := range s.Events {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %s", e.Op, e.Loc)
		if len(e.Held) > 0 {
			b.WriteString(" [held")
			for _, h := range e.Held {
				b.WriteString(" " + h.String())
			}
			b.WriteString("]")
		}
	}
	if len(s.Acquires) > 0 {
		b.WriteString("; acquires")
		for _, h := range s.Acquires {
			b.WriteString(" " + h.String())
		}
	}
	if len(s.Releases) > 0 {
		b.WriteString("; releases " + strings.Join(s.Releases, " "))
	}
	if s.Truncated {
		b.WriteString("; truncated")
	}
	return b.String()
}

// exportFacts exports a Summary for every exported function and every
// exported method of an exported named type that does something worth
// summarizing.
func exportFacts(pass *analysis.Pass, r *Result) {
	for _, f := range r.Funcs {
		fn := f.Fn
		if fn.Parent() != nil || fn.Synthetic != "" {
			continue
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj == nil || !obj.Exported() || obj.Pkg() != pass.Pkg {
			continue
		}
		if recv := obj.Signature().Recv(); recv != nil {
			n := namedOf(recv.Type())
			if n == nil || !n.Obj().Exported() {
				continue
			}
		}
		s := summarize(r, f)
		if len(s.Events) == 0 && len(s.Acquires) == 0 && len(s.Releases) == 0 {
			continue
		}
		pass.ExportObjectFact(obj, s)
	}
}

// summarize builds f's Summary from its flattened sequence.
func summarize(r *Result, f *Func) *Summary {
	evs, truncated := r.Flat(f.Fn)
	s := &Summary{Acquires: f.Acquires, Releases: f.Releases, Truncated: truncated}
	seen := map[string]int{}
	// CS ids renumbered densely within the summary.
	cs := map[int32]int32{}
	for i := range evs {
		e := &evs[i]
		switch e.Op {
		case OpLock, OpUnlock, OpRLock, OpRUnlock, OpCall, OpGo:
			continue
		}
		site := e.Ext
		if site == "" {
			site = r.Fset.Position(e.Pos).String()
		}
		held := make([]Held, len(e.Held))
		var key strings.Builder
		fmt.Fprintf(&key, "%d %s %s", e.Op, e.Loc, site)
		for j, h := range e.Held {
			if h.CS > 0 {
				id, ok := cs[h.CS]
				if !ok {
					id = int32(len(cs) + 1)
					cs[h.CS] = id
				}
				h.CS = id
			}
			held[j] = h
			fmt.Fprintf(&key, " %s/%v/%d", h.Lock, h.Read, h.CS)
		}
		if k, ok := seen[key.String()]; ok {
			s.Events[k].Repeats = true
			continue
		}
		if len(s.Events) == MaxFactEvents {
			s.Truncated = true
			break
		}
		seen[key.String()] = len(s.Events)
		s.Events = append(s.Events, SummaryEvent{Op: e.Op, Loc: e.Loc, Site: site, Held: held, Repeats: r.repeats(e)})
	}
	return s
}
