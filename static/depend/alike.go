package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// answeredAlike reports whether r, another unit's plain read between a
// unit's two writes a and b of one variable, decides nothing otherwise
// than a serial order would: every use of the value r reads is a
// comparison with a constant (directly, or after masks and conversions
// by constants), and each comparison has one outcome on every value a
// can store and the same one on every value b can store (or, when a is
// a compare-and-swap from a constant, on that value before a). The
// values are what SSA gives on all paths: constants, or an OR, AND or
// XOR of anything with a constant, whose bits that constant fixes
// (x|c has c's bits set whatever x: x|c != 0 for any c != 0). The
// reader's other reads of the field in the same function see the value
// between too (`s.state != A && s.state != B`), so each of their
// comparisons must answer so as well, all as after b or all as before
// a: the reader then acts as with the unit wholly before it (or after).
// socket.io's HttpContext.Write stores committed (1), then in
// finishWrite state|finalizing (3 or more): another Write's IsDone,
// Load() != 0, is true on both and returns ErrResponseAlreadyWritten as
// after the first Write. A value also stored, returned, passed or
// computed with otherwise, a comparison with a variable, or an outcome
// that a's value and b's can differ on stays judged.
func (x *Index) answeredAlike(a, b, r Event) bool {
	if r.Write {
		return false
	}
	mids, afters := x.stored(a.Site), x.stored(b.Site)
	if len(mids) == 0 || len(afters) == 0 {
		return false
	}
	var befores []ssa.Value
	if old, _ := x.casExpected(a.Site); old != nil {
		befores = []ssa.Value{old}
	}
	reads := x.reads(r.Site, nil)
	if len(reads) == 0 {
		return false
	}
	// The reader's other reads of the variable in the same function (the
	// second test of `s.state != A && s.state != B`) see the value
	// between too: all of them answer as one serial order does.
	mid, after, before := joinAll(mids), joinAll(afters), joinAll(befores)
	asAfter, asBefore := true, len(befores) > 0
	for _, v := range reads {
		sib, ok := siblingReads(v)
		if !ok {
			return false
		}
		for _, u := range sib {
			cmps, ok := comparedOnly(u)
			if !ok || len(cmps) == 0 {
				return false
			}
			for _, cmp := range cmps {
				m, ok := outcome(cmp, u, mid)
				if !ok {
					return false
				}
				if n, ok := outcome(cmp, u, after); !ok || n != m {
					asAfter = false
				}
				if n, ok := outcome(cmp, u, before); !ok || n != m {
					asBefore = false
				}
			}
		}
	}
	return asAfter || asBefore
}

// siblingReads returns v, a read of a field (plainly or by a sync/atomic
// method or function) or of a package variable, and every other read of
// that field or variable in v's function; false when v's address is of
// another form (an element, a pointer's target: their other reads are
// not told apart).
func siblingReads(v ssa.Value) ([]ssa.Value, bool) {
	addr := readAddr(v)
	if addr == nil {
		return nil, false
	}
	fn := v.Parent()
	if fn == nil {
		return nil, false
	}
	out := []ssa.Value{v}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			u, ok := in.(ssa.Value)
			if !ok || u == v {
				continue
			}
			if a := readAddr(u); a != nil && oneField(a, addr) {
				out = append(out, u)
			}
		}
	}
	return out, true
}

// readAddr returns the address v loads from: a load's operand, or the
// address an atomic load (function or method) is given; else nil.
func readAddr(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return v.X
		}
	case *ssa.Call:
		fn := v.Common().StaticCallee()
		if fn == nil || len(v.Common().Args) == 0 {
			return nil
		}
		if o := fn.Origin(); o != nil {
			fn = o
		}
		if obj := fn.Object(); obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "sync/atomic" && strings.HasPrefix(obj.Name(), "Load") {
			return v.Common().Args[0]
		}
	}
	return nil
}

// oneField reports whether a and b may be the address of one variable:
// one field of values of one type (whatever the base: a superset of the
// variable's reads), or one package variable.
func oneField(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	fa, ok1 := a.(*ssa.FieldAddr)
	fb, ok2 := b.(*ssa.FieldAddr)
	return ok1 && ok2 && fa.Field == fb.Field && types.Identical(fa.X.Type(), fb.X.Type())
}

// comparedOnly returns the comparisons that v's value reaches, when
// every use of it is one (==, !=, <, <=, >, >=) or a bitwise operation
// or integer conversion whose uses are so in turn; else false. Whether
// the other operand is a constant is up to outcome.
func comparedOnly(v ssa.Value) ([]*ssa.BinOp, bool) {
	var out []*ssa.BinOp
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		if depth > 8 || v.Referrers() == nil {
			return false
		}
		for _, ref := range *v.Referrers() {
			switch u := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.BinOp:
				switch u.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
					out = append(out, u)
				case token.AND, token.OR, token.XOR, token.AND_NOT:
					if !walk(u, depth+1) {
						return false
					}
				default:
					return false
				}
			case *ssa.ChangeType:
				if !walk(u, depth+1) {
					return false
				}
			case *ssa.Convert:
				if !isInt(u.Type()) || !isInt(u.X.Type()) || !walk(u, depth+1) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if !walk(v, 0) {
		return nil, false
	}
	return out, true
}

// outcome is cmp's result when hole holds a value of h, if one result
// holds for all of them.
func outcome(cmp *ssa.BinOp, hole ssa.Value, h abstract) (bool, bool) {
	e := &evaluator{hole: hole, h: h, on: map[ssa.Value]bool{}}
	o := e.eval(cmp, 0)
	if !o.ok || len(o.set) != 1 || o.set[0].Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(o.set[0]), true
}

// abstract is what is known of a value on every path: for an integer,
// which bits are fixed and to what (a constant has all of them fixed);
// otherwise the constants it can be. ok false: nothing is known.
type abstract struct {
	ok          bool
	integer     bool
	known, ones uint64 // integer: the fixed bits, and which of them are 1
	width       int
	signed      bool
	set         []constant.Value // otherwise: the values it can be
}

func (v abstract) mask() uint64 {
	if v.width >= 64 {
		return ^uint64(0)
	}
	return 1<<v.width - 1
}

func (v abstract) exact() bool { return v.integer && v.known == v.mask() }

// join is what is known of a value that is u on some paths and v on
// the others.
func join(u, v abstract) abstract {
	switch {
	case !u.ok || !v.ok:
		return abstract{}
	case u.integer && v.integer && u.width == v.width && u.signed == v.signed:
		k := u.known & v.known &^ (u.ones ^ v.ones)
		return abstract{ok: true, integer: true, known: k, ones: u.ones & k, width: u.width, signed: u.signed}
	case !u.integer && !v.integer:
		set := slices.Clone(u.set)
		for _, c := range v.set {
			if !slices.ContainsFunc(set, func(d constant.Value) bool { return sameConstant(c, d) }) {
				set = append(set, c)
			}
		}
		if len(set) > 8 {
			return abstract{}
		}
		return abstract{ok: true, set: set}
	}
	return abstract{}
}

func joinAll(vs []ssa.Value) abstract {
	var out abstract
	for i, v := range vs {
		e := &evaluator{on: map[ssa.Value]bool{}}
		w := e.eval(v, 0)
		if i == 0 {
			out = w
		} else {
			out = join(out, w)
		}
	}
	return out
}

func sameConstant(c, d constant.Value) bool {
	return c.Kind() == d.Kind() && constant.Compare(c, token.EQL, d)
}

// intShape returns an integer type's width and signedness.
func intShape(t types.Type) (int, bool, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return 0, false, false
	}
	signed := b.Info()&types.IsUnsigned == 0
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8, signed, true
	case types.Int16, types.Uint16:
		return 16, signed, true
	case types.Int32, types.Uint32:
		return 32, signed, true
	}
	return 64, signed, true
}

func isInt(t types.Type) bool {
	_, _, ok := intShape(t)
	return ok
}

// anyBits is v, or, when nothing is known of it, an integer of type t
// with no bit fixed.
func anyBits(v abstract, t types.Type) abstract {
	if v.ok {
		return v
	}
	w, signed, ok := intShape(t)
	if !ok {
		return v
	}
	return abstract{ok: true, integer: true, width: w, signed: signed}
}

// evaluator evaluates SSA values abstractly, with hole standing for h.
type evaluator struct {
	hole  ssa.Value
	holes map[ssa.Value]bool // more values standing for h
	h     abstract
	on    map[ssa.Value]bool // values being evaluated: a cycle knows nothing
}

func (e *evaluator) eval(v ssa.Value, depth int) abstract {
	if v == e.hole && v != nil || e.holes[v] {
		return e.h
	}
	if depth > 16 || e.on[v] {
		return abstract{}
	}
	e.on[v] = true
	defer delete(e.on, v)
	w, signed, isint := intShape(v.Type())
	switch v := v.(type) {
	case *ssa.Const:
		if isint {
			var bits uint64
			if v.Value != nil {
				i := constant.ToInt(v.Value)
				if i.Kind() != constant.Int {
					return abstract{}
				}
				if u, ok := constant.Uint64Val(i); ok {
					bits = u
				} else if s, ok := constant.Int64Val(i); ok {
					bits = uint64(s)
				} else {
					return abstract{}
				}
			}
			out := abstract{ok: true, integer: true, width: w, signed: signed}
			out.known = out.mask()
			out.ones = bits & out.mask()
			return out
		}
		if v.Value == nil {
			return abstract{}
		}
		return abstract{ok: true, set: []constant.Value{v.Value}}
	case *ssa.ChangeType:
		return e.eval(v.X, depth+1)
	case *ssa.Convert:
		x := e.eval(v.X, depth+1)
		if !isint || !x.exact() {
			return abstract{}
		}
		bits := x.ones
		if x.signed && x.width < 64 && bits&(1<<(x.width-1)) != 0 {
			bits |= ^x.mask() // sign-extend
		}
		out := abstract{ok: true, integer: true, width: w, signed: signed}
		out.known = out.mask()
		out.ones = bits & out.mask()
		return out
	case *ssa.Phi:
		var out abstract
		for i, ed := range v.Edges {
			u := e.eval(ed, depth+1)
			if i == 0 {
				out = u
			} else {
				out = join(out, u)
			}
		}
		return out
	case *ssa.UnOp:
		x := e.eval(v.X, depth+1)
		switch {
		case v.Op == token.NOT && x.ok && !x.integer:
			var set []constant.Value
			for _, c := range x.set {
				if c.Kind() != constant.Bool {
					return abstract{}
				}
				set = append(set, constant.MakeBool(!constant.BoolVal(c)))
			}
			return abstract{ok: true, set: set}
		case v.Op == token.XOR && x.ok && x.integer:
			x.ones = ^x.ones & x.known
			return x
		}
		return abstract{}
	case *ssa.BinOp:
		x, y := e.eval(v.X, depth+1), e.eval(v.Y, depth+1)
		switch v.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			if !x.ok || !y.ok {
				return abstract{}
			}
			return compare(v.Op, x, y)
		}
		if !isint {
			return abstract{}
		}
		// An integer not known: none of its bits fixed.
		x, y = anyBits(x, v.X.Type()), anyBits(y, v.Y.Type())
		if !x.integer || !y.integer || x.width != y.width {
			return abstract{}
		}
		out := abstract{ok: true, integer: true, width: x.width, signed: x.signed}
		zx, zy := x.known&^x.ones, y.known&^y.ones // bits known 0
		switch v.Op {
		case token.OR:
			out.ones = x.ones | y.ones
			out.known = out.ones | zx&zy
		case token.AND:
			zeros := zx | zy
			out.ones = x.ones & y.ones
			out.known = out.ones | zeros
		case token.AND_NOT:
			zeros := zx | y.ones
			out.ones = x.ones & zy
			out.known = out.ones | zeros
		case token.XOR:
			out.known = x.known & y.known
			out.ones = (x.ones ^ y.ones) & out.known
		default:
			return abstract{}
		}
		return out
	}
	return abstract{}
}

// compare is what is known of x op y.
func compare(op token.Token, x, y abstract) abstract {
	both := abstract{ok: true, set: []constant.Value{constant.MakeBool(false), constant.MakeBool(true)}}
	is := func(b bool) abstract { return abstract{ok: true, set: []constant.Value{constant.MakeBool(b)}} }
	if !x.integer && !y.integer {
		var out abstract
		for i, c := range x.set {
			for j, d := range y.set {
				if c.Kind() != d.Kind() && !(isNumeric(c) && isNumeric(d)) {
					return abstract{}
				}
				r := is(constant.Compare(c, op, d))
				if i == 0 && j == 0 {
					out = r
				} else {
					out = join(out, r)
				}
			}
		}
		return out
	}
	if !x.integer || !y.integer || x.width != y.width || x.signed != y.signed {
		return abstract{}
	}
	m := x.mask()
	switch op {
	case token.EQL, token.NEQ:
		eq := both
		if x.known&y.known&(x.ones^y.ones) != 0 {
			eq = is(false) // a fixed bit differs
		} else if x.exact() && y.exact() {
			eq = is(true)
		}
		if op == token.NEQ && len(eq.set) == 1 {
			eq = is(!constant.BoolVal(eq.set[0]))
		}
		return eq
	}
	if x.signed {
		if !x.exact() || !y.exact() {
			return both
		}
		sx, sy := signExtend(x.ones, x.width), signExtend(y.ones, y.width)
		return is(constant.Compare(constant.MakeInt64(sx), op, constant.MakeInt64(sy)))
	}
	// Unsigned: the range each can be in.
	xmin, xmax := x.ones, x.ones|^x.known&m
	ymin, ymax := y.ones, y.ones|^y.known&m
	switch op {
	case token.LSS:
		if xmax < ymin {
			return is(true)
		} else if xmin >= ymax {
			return is(false)
		}
	case token.LEQ:
		if xmax <= ymin {
			return is(true)
		} else if xmin > ymax {
			return is(false)
		}
	case token.GTR:
		if xmin > ymax {
			return is(true)
		} else if xmax <= ymin {
			return is(false)
		}
	case token.GEQ:
		if xmin >= ymax {
			return is(true)
		} else if xmax < ymin {
			return is(false)
		}
	}
	return both
}

func isNumeric(c constant.Value) bool {
	k := c.Kind()
	return k == constant.Int || k == constant.Float || k == constant.Complex
}

func signExtend(bits uint64, width int) int64 {
	if width >= 64 {
		return int64(bits)
	}
	s := 64 - width
	return int64(bits<<s) >> s
}
