package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"math/bits"

	"golang.org/x/tools/go/ssa"
)

// carryMargin bounds the small adds highBits allows: a constant c below
// 2^(s-carryMargin), s the lowest bit the unit uses. The bits below s
// start at zero and only those adds change them, so a carry into bit s
// needs more than 2^carryMargin of them on one variable: over two years
// at one add per nanosecond.
const carryMargin = 56

// highView is where a unit's read of a 64-bit counter reaches only its
// high bits (highBits): the instructions through which it does, which
// the taint does not enter, and the lowest bit they use.
type highView struct {
	cut  map[ssa.Instruction]bool
	from uint
}

// highBits returns the high view of read a: a is a sync/atomic load or
// add of an unexported uint64 field f (AddUint64, LoadUint64, or
// atomic.Uint64's Add and Load), some uses of its value see only bits at
// or above from (v >> s, ^v >> s, v & m with m's lowest bit set at s,
// s ≥ carryMargin+1), and every write of f in the program is an atomic
// add of a constant that is a multiple of 2^from (it leaves the bits
// below alone) or below 2^(from-carryMargin). The bits below from then
// count small adds from zero and never carry into bit from
// (carryMargin), and no write but an add of a multiple of 2^from changes
// the bits the view uses: prometheus' histogram, whose Observe adds 1 to
// countAndHotIdx and uses only its top bit, the hot index, which Write
// flips by adding 1<<63.
func (x *Index) highBits(a Event) (highView, bool) {
	var f *types.Var
	hv := highView{cut: map[ssa.Instruction]bool{}, from: 64}
	view := func(r ssa.Instruction) (uint, bool) {
		bo, ok := r.(*ssa.BinOp)
		if !ok {
			return 0, false
		}
		k, ok := bo.Y.(*ssa.Const)
		if !ok || k.Value == nil {
			return 0, false
		}
		n, exact := constant.Uint64Val(constant.ToInt(k.Value))
		switch {
		case !exact:
		case bo.Op == token.SHR && n < 64:
			return uint(n), true
		case bo.Op == token.AND && n != 0:
			return uint(bits.TrailingZeros64(n)), true
		}
		return 0, false
	}
	for _, v := range x.reads(a.Site, nil) {
		call, ok := v.(*ssa.Call)
		if !ok || len(call.Common().Args) == 0 {
			return highView{}, false
		}
		op := u64Op(call.Common().StaticCallee())
		fa, ok := call.Common().Args[0].(*ssa.FieldAddr)
		if op != "Add" && op != "Load" || !ok || fieldOf(fa) == nil || fieldOf(fa).Exported() {
			return highView{}, false
		}
		if f != nil && f != fieldOf(fa) {
			return highView{}, false
		}
		f = fieldOf(fa)
		for _, r := range *call.Referrers() {
			if s, ok := view(r); ok && s > carryMargin {
				hv.cut[r] = true
				hv.from = min(hv.from, s)
				continue
			}
			// ^v >> s: the complement's high bits are v's, negated.
			u, ok := r.(*ssa.UnOp)
			if !ok || u.Op != token.XOR || u.Referrers() == nil {
				continue
			}
			all := len(*u.Referrers()) > 0
			for _, ur := range *u.Referrers() {
				if _, dbg := ur.(*ssa.DebugRef); dbg {
					continue
				}
				if s, ok := view(ur); ok && s > carryMargin && ur.(*ssa.BinOp).Op == token.SHR {
					hv.from = min(hv.from, s)
				} else {
					all = false
				}
			}
			if all {
				hv.cut[u] = true
			}
		}
	}
	if f == nil || len(hv.cut) == 0 || hv.from < carryMargin+1 {
		return highView{}, false
	}
	// Every write of f in the program.
	for fa := range x.fieldAddrs(f) {
		for _, ref := range *fa.Referrers() {
			switch ref := ref.(type) {
			case *ssa.DebugRef:
				continue
			case *ssa.UnOp:
				if ref.Op == token.MUL {
					continue
				}
			case *ssa.Store:
				if ref.Addr == fa && smallLow(ref.Val, hv.from) {
					continue
				}
			case *ssa.Call:
				args := ref.Common().Args
				if len(args) == 0 || args[0] != fa {
					break
				}
				switch u64Op(ref.Common().StaticCallee()) {
				case "Load":
					continue
				case "Add":
					if c, ok := addConst(ref); ok && (c&(1<<hv.from-1) == 0 || smallAdd(c, hv.from)) {
						continue
					}
				case "Store", "Swap":
					if len(args) == 2 && smallLow(args[1], hv.from) {
						continue
					}
				case "CompareAndSwap":
					if len(args) == 3 && smallLow(args[2], hv.from) {
						continue
					}
				}
			}
			return highView{}, false
		}
	}
	return hv, true
}

// smallAdd reports whether adding c to a counter whose bits below from
// count such adds from zero leaves the bits at and above from alone
// (carryMargin).
func smallAdd(c uint64, from uint) bool {
	return c != 0 && uint(bits.Len64(c))+carryMargin <= from
}

// smallLow reports whether v's bits below from are a constant that a
// small add could give (smallAdd), or zero: a reset of the count bits
// (prometheus' `coldIdx<<63`, `(coldIdx<<63)+1`).
func smallLow(v ssa.Value, from uint) bool {
	low, ok := lowBits(v, from, 0)
	return ok && (low == 0 || smallAdd(low, from))
}

// lowBits is the constant v's bits below from are, when known: a
// constant's, a left shift's by from or more (none), a sum's or an
// or's of two such.
func lowBits(v ssa.Value, from uint, depth int) (uint64, bool) {
	if depth > 4 {
		return 0, false
	}
	mask := uint64(1)<<from - 1
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil {
			return 0, true
		}
		n, exact := constant.Uint64Val(constant.ToInt(v.Value))
		return n & mask, exact
	case *ssa.Convert:
		if b, ok := v.X.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 {
			return lowBits(v.X, from, depth+1)
		}
	case *ssa.BinOp:
		switch v.Op {
		case token.SHL:
			if k, ok := v.Y.(*ssa.Const); ok && k.Value != nil {
				if n, exact := constant.Uint64Val(constant.ToInt(k.Value)); exact && n >= uint64(from) {
					return 0, true
				}
			}
		case token.ADD, token.OR:
			l, ok1 := lowBits(v.X, from, depth+1)
			r, ok2 := lowBits(v.Y, from, depth+1)
			if ok1 && ok2 && l+r <= mask {
				return l + r, true
			}
		}
	}
	return 0, false
}

// keepsHigh reports whether w, another unit's write of a's variable, is
// an atomic add of a constant that leaves a's high view (highBits) as
// it was: every instruction at its site adds such a small constant.
func (x *Index) keepsHigh(hv highView, w Event) bool {
	found := false
	for _, in := range x.instrs[w.Site] {
		call, ok := in.(*ssa.Call)
		if !ok || u64Op(call.Common().StaticCallee()) != "Add" {
			continue
		}
		c, ok := addConst(call)
		if !ok || !smallAdd(c, hv.from) {
			return false
		}
		found = true
	}
	return found
}

// addConst is the constant an atomic add call adds, if it is one.
func addConst(call *ssa.Call) (uint64, bool) {
	args := call.Common().Args
	if len(args) != 2 {
		return 0, false
	}
	k, ok := args[1].(*ssa.Const)
	if !ok || k.Value == nil {
		return 0, false
	}
	return constant.Uint64Val(constant.ToInt(k.Value))
}

// u64Op is "Add" or "Load" when fn is sync/atomic's AddUint64 or
// LoadUint64, or the method Add or Load of atomic.Uint64; else "".
func u64Op(fn *ssa.Function) string {
	switch name := atomicName(fn); name {
	case "AddUint64", "LoadUint64", "StoreUint64", "SwapUint64", "CompareAndSwapUint64":
		return name[:len(name)-len("Uint64")]
	case "Add", "Load", "Store", "Swap", "CompareAndSwap":
		if recv := fn.Signature.Recv(); recv != nil {
			if p, ok := recv.Type().(*types.Pointer); ok && p.Elem().String() == "sync/atomic.Uint64" {
				return name
			}
		}
	}
	return ""
}

// casAdd reports whether e is the load or the compare-and-swap of a CAS
// retry loop that only adds to its variable (prometheus'
// atomicAddFloat): the CAS, through the very pointer the load read,
// expects the loaded value and goes back to the load when it fails
// (failsBack), and the loaded value goes nowhere but into
// the CAS, as its expected value and, through an addition of a value
// computed without it (and conversions between a float and its bits),
// as its new value. The unit learns nothing of the variable but whether
// its CAS swapped, and loads again when it did not, so two such adds, or
// one and a blind atomic add, commute: either order leaves the same sum
// (for floats, the same up to the rounding of the two additions, whose
// order no serial order of two adders fixes either), and tells neither
// goroutine anything.
func (x *Index) casAdd(e Event) bool {
	if !e.Read {
		return false
	}
	found := false
	for _, in := range x.instrs[e.Site] {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		var load ssa.Value
		var cas *ssa.Call
		if fn := call.Common().StaticCallee(); fn != nil && isAtomicCAS(fn) && len(call.Common().Args) == 3 {
			cas, load = call, unconvert(call.Common().Args[1])
		} else if loadedAddr(call) != nil {
			load = call
			for _, r := range *call.Referrers() {
				if c, ok := r.(*ssa.Call); ok && c.Common().StaticCallee() != nil && isAtomicCAS(c.Common().StaticCallee()) && len(c.Common().Args) == 3 && unconvert(c.Common().Args[1]) == call {
					cas = c
				}
			}
		}
		if cas == nil || loadedAddr(load) == nil || loadedAddr(load) != cas.Common().Args[0] || !failsBack(cas, load) || !addsOnly(load, cas) {
			return false
		}
		found = true
	}
	return found
}

// addsOnly reports whether the loaded value goes nowhere but into cas:
// as its expected value, and into its new value through conversions and
// additions of values computed without it.
func addsOnly(load ssa.Value, cas *ssa.Call) bool {
	args := cas.Common().Args
	seen := map[ssa.Value]bool{load: true}
	work := []ssa.Value{load}
	intoNew := false
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if unconvert(args[2]) == v || args[2] == v {
			intoNew = true
		}
		for _, r := range *v.Referrers() {
			var next ssa.Value
			switch r := r.(type) {
			case *ssa.DebugRef:
				continue
			case *ssa.Call:
				if r == cas {
					if args[0] == v {
						return false
					}
					continue
				}
				fn := r.Common().StaticCallee()
				if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "math" || !bitsConv[fn.Name()] {
					return false
				}
				next = r
			case *ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface:
				next = r.(ssa.Value)
			case *ssa.BinOp:
				if r.Op != token.ADD && (r.Op != token.SUB || r.Y == v) || seen[r.X] && seen[r.Y] {
					return false
				}
				next = r
			default:
				return false
			}
			if !seen[next] {
				seen[next] = true
				work = append(work, next)
			}
		}
	}
	return intoNew
}

// bitsConv are math's conversions between a float and its bits.
var bitsConv = map[string]bool{"Float64bits": true, "Float64frombits": true, "Float32bits": true, "Float32frombits": true}
