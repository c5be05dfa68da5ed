package ptg

import (
	"sync"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// activations caches, per goroutine, the innermost region-begin event open
// at each of its events (-1: none), computed when first asked for.
type activations struct {
	mu     sync.Mutex
	parent map[int32][]int32 // goroutine → local position → enclosing region-begin event
}

// Activations returns the region-begin events of the method calls that
// enclose event e in its goroutine, outermost first. Every instrumented
// method with a receiver records a region around its body, so these are
// the activations e runs in: two events under the same begin event ran in
// one call, and a value can pass between two calls only through their
// results and arguments. A region-begin event is not its own activation.
func (gr *Graph) Activations(e int32) []int32 {
	if e < 0 || int(e) >= len(gr.Tr.Events) {
		return nil
	}
	g := gr.Tr.Events[e].G
	parent := gr.parents(g)
	local := gr.Local[e]
	if int(local) >= len(parent) {
		return nil
	}
	var out []int32
	row := gr.G(g)
	for b := parent[local]; b >= 0; b = parent[gr.Local[b]] {
		out = append(out, b)
		if int(gr.Local[b]) >= len(row) {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// parents returns goroutine g's innermost open region-begin event at each
// of its local positions.
func (gr *Graph) parents(g int32) []int32 {
	gr.acts.mu.Lock()
	defer gr.acts.mu.Unlock()
	if p, ok := gr.acts.parent[g]; ok {
		return p
	}
	row := gr.G(g)
	parent := make([]int32, len(row))
	var stack []int32
	for k, ev := range row {
		top := int32(-1)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		parent[k] = top
		switch gr.Tr.Events[ev].Op {
		case trace.RegionBegin:
			stack = append(stack, ev)
		case trace.RegionEnd:
			// The end belongs to the activation it closes: its parent is
			// that activation's, as for the begin.
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 {
					parent[k] = stack[len(stack)-1]
				} else {
					parent[k] = -1
				}
			}
		}
	}
	if gr.acts.parent == nil {
		gr.acts.parent = map[int32][]int32{}
	}
	gr.acts.parent[g] = parent
	return parent
}
