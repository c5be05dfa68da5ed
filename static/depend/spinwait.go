package depend

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// spinWaits reports whether r, another unit's read between the writes a
// and b of one variable, is a spin-wait's read that a's value keeps
// waiting and b's value lets out: every value read at r's site is used
// only by a test (the value itself as a bool, negated, or compared with
// a constant) whose one edge leads, through blocks that only compute or
// yield (time.Sleep, runtime.Gosched) and merge no value (no phi),
// straight back to the read, and whose other edge leaves; every value a
// stores (constants) takes the way back and every value b stores (a
// deferred store included) the way out. A reader that reads a's value
// then did nothing another goroutine or its own later steps could tell
// from not having run that round, and it leaves only on a value it
// reads afresh, b's, after the unit's end, as a serial order with the
// unit first gives. reugn/async's ConcurrentMap: Clear stores clearing
// true, swaps the map, and stores it false in a defer; smap() sleeps
// while clearing is true and loads the map only after it reads false.
// A reader that acts on the intermediate value (returns, records or
// counts it, gives up after some rounds), or a b whose value keeps the
// spin, stays judged; so does a round that stores anything.
func (x *Index) spinWaits(a, b, r Event) bool {
	if !r.Read || r.Write {
		return false
	}
	aVals, bVals := x.storedConsts(a), x.storedConsts(b)
	if aVals == nil || bVals == nil {
		return false
	}
	reads := x.reads(r.Site, nil)
	if len(reads) == 0 {
		return false
	}
	for _, v := range reads {
		rin, ok := v.(ssa.Instruction)
		if !ok || rin.Block() == nil {
			return false
		}
		br, eval := spinTest(v)
		if br == nil || br.Block() != rin.Block() {
			return false
		}
		// The edge every value of a takes must go back; every value of
		// b must take the other.
		stay := -1
		for _, c := range aVals {
			taken, ok := eval(c)
			if !ok {
				return false
			}
			e := edgeOf(taken)
			if stay >= 0 && e != stay {
				return false
			}
			stay = e
		}
		for _, c := range bVals {
			taken, ok := eval(c)
			if !ok {
				return false
			}
			if e := edgeOf(taken); e == stay {
				return false
			}
		}
		if !quietBack(br.Block().Succs[stay], rin, br) {
			return false
		}
	}
	return true
}

// storedConsts returns the constants the write e stores (storedAt: a
// store, an atomic Store or Swap, or such a Store deferred at e's site),
// or nil when it stores anything else.
func (x *Index) storedConsts(e Event) []constant.Value {
	vals, ok := x.storedAt(e)
	if !ok {
		return nil
	}
	var out []constant.Value
	for _, v := range vals {
		c, ok := unconvert(v).(*ssa.Const)
		if !ok || c.Value == nil {
			return nil
		}
		out = append(out, c.Value)
	}
	return out
}

// spinTest returns the branch that alone uses v, the read value, through
// negations and comparisons with a constant, and eval, which tells
// whether that branch takes its true edge (Succs[0]) for a value c in
// place of v; nil when v has any other use.
func spinTest(v ssa.Value) (*ssa.If, func(c constant.Value) (bool, bool)) {
	type step func(constant.Value) (constant.Value, bool)
	var steps []step
	cur := v
	for range 8 {
		var next ssa.Instruction
		for _, ref := range *cur.Referrers() {
			if _, ok := ref.(*ssa.DebugRef); ok {
				continue
			}
			if next != nil {
				return nil, nil
			}
			next = ref
		}
		switch n := next.(type) {
		case *ssa.If:
			return n, func(c constant.Value) (bool, bool) {
				for _, s := range steps {
					var ok bool
					if c, ok = s(c); !ok {
						return false, false
					}
				}
				if c.Kind() != constant.Bool {
					return false, false
				}
				return constant.BoolVal(c), true
			}
		case *ssa.UnOp:
			if n.Op != token.NOT {
				return nil, nil
			}
			steps = append(steps, func(c constant.Value) (constant.Value, bool) {
				if c.Kind() != constant.Bool {
					return nil, false
				}
				return constant.MakeBool(!constant.BoolVal(c)), true
			})
			cur = n
		case *ssa.BinOp:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return nil, nil
			}
			other := n.Y
			if n.Y == cur {
				other = n.X
			}
			k, ok := other.(*ssa.Const)
			if !ok || k.Value == nil || other == cur {
				return nil, nil
			}
			op := n.Op
			steps = append(steps, func(c constant.Value) (constant.Value, bool) {
				if c.Kind() != k.Value.Kind() && !(isNum(c) && isNum(k.Value)) {
					return nil, false
				}
				return constant.MakeBool(constant.Compare(c, op, k.Value)), true
			})
			cur = n
		default:
			return nil, nil
		}
	}
	return nil, nil
}

// edgeOf is the successor index an If takes on its condition's value.
func edgeOf(taken bool) int {
	if taken {
		return 0
	}
	return 1
}

func isNum(c constant.Value) bool {
	switch c.Kind() {
	case constant.Int, constant.Float:
		return true
	}
	return false
}

// quietBack reports whether the path from blk goes through blocks with
// one successor and no phi, each instruction only computing (quiet) or
// yielding, to rin's block, whose instructions before rin, and from rin
// to the test br, are such too.
func quietBack(blk *ssa.BasicBlock, rin ssa.Instruction, br *ssa.If) bool {
	still := func(in ssa.Instruction) bool {
		if _, ok := in.(*ssa.Phi); ok {
			return false
		}
		if quiet(in) {
			return true
		}
		call, ok := in.(*ssa.Call)
		if !ok {
			return false
		}
		fn := call.Common().StaticCallee()
		return fn != nil && yields(fn)
	}
	seen := map[*ssa.BasicBlock]bool{}
	for !seen[blk] {
		seen[blk] = true
		if blk == rin.Block() {
			for _, in := range blk.Instrs {
				if in != rin && in != ssa.Instruction(br) && !still(in) {
					return false
				}
			}
			return true
		}
		for _, in := range blk.Instrs {
			if !still(in) {
				return false
			}
		}
		if len(blk.Succs) != 1 {
			return false
		}
		blk = blk.Succs[0]
	}
	return false
}
