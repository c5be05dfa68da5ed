package depend

import (
	"math/bits"

	"golang.org/x/tools/go/ssa"
)

// ctrlDeps is the control dependence of a function's blocks: dep[a] lists
// the blocks whose execution the branch ending block a decides.
type ctrlDeps struct {
	dep [][]int
}

// bitset over a function's blocks and its exit.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (s bitset) set(i int)      { s[i/64] |= 1 << (i % 64) }
func (s bitset) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s bitset) fill(n int) {
	for i := 0; i < n; i++ {
		s.set(i)
	}
}
func (s bitset) and(t bitset) {
	for i := range s {
		s[i] &= t[i]
	}
}
func (s bitset) copyFrom(t bitset) { copy(s, t) }
func (s bitset) equal(t bitset) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}
func (s bitset) each(f func(int)) {
	for w, v := range s {
		for v != 0 {
			b := bits.TrailingZeros64(v)
			f(w*64 + b)
			v &^= 1 << b
		}
	}
}

// controlDeps computes fn's control dependence from its post-dominators
// (block y depends on the branch of block a when y post-dominates a
// successor of a but does not strictly post-dominate a).
func (x *Index) controlDeps(fn *ssa.Function) *ctrlDeps {
	if c, ok := x.cd[fn]; ok {
		return c
	}
	n := len(fn.Blocks)
	exit := n
	succ := func(b int) []int {
		ss := fn.Blocks[b].Succs
		if len(ss) == 0 {
			return []int{exit}
		}
		out := make([]int, len(ss))
		for i, s := range ss {
			out[i] = s.Index
		}
		return out
	}
	pdom := make([]bitset, n+1)
	for i := range pdom {
		pdom[i] = newBitset(n + 1)
		if i == exit {
			pdom[i].set(exit)
		} else {
			pdom[i].fill(n + 1)
		}
	}
	tmp := newBitset(n + 1)
	for changed := true; changed; {
		changed = false
		for b := n - 1; b >= 0; b-- {
			tmp.fill(n + 1)
			for _, s := range succ(b) {
				tmp.and(pdom[s])
			}
			tmp.set(b)
			if !tmp.equal(pdom[b]) {
				pdom[b].copyFrom(tmp)
				changed = true
			}
		}
	}
	c := &ctrlDeps{dep: make([][]int, n)}
	for a := 0; a < n; a++ {
		if len(fn.Blocks[a].Succs) < 2 {
			continue
		}
		seen := newBitset(n + 1)
		for _, s := range succ(a) {
			pdom[s].each(func(y int) {
				if y == exit || seen.has(y) || (y != a && pdom[a].has(y)) {
					return
				}
				seen.set(y)
				c.dep[a] = append(c.dep[a], y)
			})
		}
	}
	x.cd[fn] = c
	return c
}
