package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// chanElem returns the element type of channel expression ch.
func (w *fileRW) chanElem(ch ast.Expr) types.Type {
	if c, ok := w.coreOf(ch).(*types.Chan); ok {
		return c.Elem()
	}
	return nil
}

// sendsAsIs reports whether value v can be passed to rt.Send for channel
// ch as it is: the type parameter of Send is inferred from the channel, so
// the value must be untyped or of exactly the element type.
func (w *fileRW) sendsAsIs(ch, v ast.Expr) bool {
	if w.isPure(v) {
		return true
	}
	elem, vt := w.chanElem(ch), w.typeOf(v)
	return elem != nil && vt != nil && types.Identical(elem, vt)
}

// send rewrites ch <- v into rt.Send.
func (w *fileRW) send(s *ast.SendStmt, list bool) pcs {
	if !w.ins.api.has("Send") || w.chanElem(s.Chan) == nil {
		return w.nodeSplice(s, rn(s.Chan, w.expr(s.Chan, cLoad)), rn(s.Value, w.expr(s.Value, cLoad)))
	}
	site := w.site(s.Arrow, w.typeStr(w.typeOf(s.Chan)))
	if w.sendsAsIs(s.Chan, s.Value) {
		return genAt(s.Pos(), rtName+".Send(").cat(w.load(s.Chan), gen(", "), w.load(s.Value), gen(", "+site+")"))
	}
	// The value needs the assignment's conversion: c := ch; v := zero(c); v = value.
	c, v := w.tmp(), w.tmp()
	body := genAt(s.Pos(), c+" := ").cat(w.load(s.Chan), gen("; "+v+" := "+w.h("E")+"("+c+"); "+v+" = "),
		w.load(s.Value), gen("; "+rtName+".Send("+c+", "+v+", "+site+")"))
	if list {
		return gen("{ ").cat(body, gen(" }"))
	}
	return gen("func() { ").cat(body, gen(" }()"))
}

// goStmt rewrites go f(x) so that the function and arguments are evaluated
// in the parent, the fork is recorded, and the child records its begin and
// end:
//
//	{ f0, x0 := f, x; id := rt.Go(site); go func() { rt.Begin(id); defer rt.End(); f0(x0) }() }
func (w *fileRW) goStmt(s *ast.GoStmt) pcs {
	plain := func() pcs { return w.nodeSplice(s, rn(s.Call, w.expr(s.Call, cLoad))) }
	if !w.ins.api.has("Go") || !w.ins.api.has("Begin") || !w.ins.api.has("End") {
		return plain()
	}
	nsites := len(w.sites)
	cp := w.goParts(s.Call)
	if cp == nil {
		w.sites = w.sites[:nsites]
		return plain()
	}
	for i, a := range cp.argExprs {
		if a != nil && !cp.pure[i] && !cp.tuple && !w.typeable(a) {
			w.sites = w.sites[:nsites]
			return plain()
		}
	}
	id := w.tmp()
	site := w.site(s.Go, w.goDesc(s.Call))
	var lhs []string
	var rhs []pcs
	var fun pcs
	switch {
	case cp.lit != nil:
	case cp.static:
		fun = cp.fun
	default:
		f := w.tmp()
		lhs, rhs = append(lhs, f), append(rhs, cp.fun)
		fun = gen(f)
	}
	var args []pcs
	if cp.tuple {
		tt := w.typeOf(s.Call.Args[0]).(*types.Tuple)
		var names []string
		for i := 0; i < tt.Len(); i++ {
			n := w.tmp()
			names = append(names, n)
			args = append(args, gen(n))
		}
		lhs = append(lhs, strings.Join(names, ", "))
		rhs = append(rhs, cp.args[0])
	} else {
		for i, a := range cp.args {
			if cp.pure[i] {
				args = append(args, a)
				continue
			}
			n := w.tmp()
			lhs, rhs = append(lhs, n), append(rhs, a)
			args = append(args, gen(n))
		}
	}
	out := genAt(s.Pos(), "{ ")
	if len(lhs) > 0 {
		out = out.cat(gen(strings.Join(lhs, ", ")+" := "), join(rhs, ", "), gen("; "))
	}
	out = out.cat(gen(id + " := " + rtName + ".Go(" + site + "); "))
	begin := " " + rtName + ".Begin(" + id + "); defer " + rtName + ".End();"
	call := gen("(").cat(join(args, ", "))
	if cp.ellipsis {
		call = call.cat(gen("..."))
	}
	call = call.cat(gen(")"))
	if cp.lit != nil {
		out = out.cat(genAt(s.Go, "go "), w.funcLit(cp.lit, gen(begin)), call)
	} else {
		out = out.cat(genAt(s.Go, "go func() {"+begin+" "), fun, call, gen(" }()"))
	}
	return out.cat(gen(" }"))
}

// goDesc describes the function a go statement starts.
func (w *fileRW) goDesc(call *ast.CallExpr) string {
	switch f := unparen(call.Fun).(type) {
	case *ast.FuncLit:
		return "func"
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if sel := w.info.Selections[f]; sel != nil {
			if n := namedOf(sel.Recv()); n != nil {
				return n.Obj().Name() + "." + f.Sel.Name
			}
		}
		return f.Sel.Name
	}
	return "func"
}

// rangeStmt rewrites a range loop. Over a channel, the body records the
// receive it got, and the loop's end records the receive that saw the
// channel closed (unless a break left it). Each receive is gated before
// the loop's head performs it (rt.RangeGate: before the loop, at the end
// of the body, and at a continue of the loop), so that in a replay only
// the receiver whose turn it is waits in the channel: with every worker
// of a pool waiting there, the runtime, not the schedule, chose which one
// got a send, and the schedule diverged:
//
//	{ c := ch; brk := false; rt.RangeGate(c, s); for v := range c { rt.RangeRecv(c, true, s); ...; rt.RangeGate(c, s) }; if !brk { rt.RangeRecv(c, false, s) } }
//
// When that needs a block and the loop is labeled, the label moves into the
// block (whole is then true: p replaces the labeled statement).
func (w *fileRW) rangeStmt(s *ast.RangeStmt, lbl *ast.LabeledStmt) (p pcs, whole bool) {
	var kp, vp pcs
	if s.Tok == token.ASSIGN {
		kp = w.lhsInline(s.Key, w.lhsKind(s.Key), "W", "")
		if s.Value != nil {
			vp = w.lhsInline(s.Value, w.lhsKind(s.Value), "W", "")
		}
	}
	if s.Key != nil && s.Tok == token.ASSIGN && isBlank(s.Key) {
		kp = nil
	}
	// Before Go 1.22 the iteration variables are declared once for the
	// whole loop: see sharedIterVars.
	var decl pcs
	var tok repl
	if lbl == nil || !w.fn.gotos[lbl.Label.Name] {
		if d, k, v, t, ok := w.sharedIterVars(s); ok {
			decl, kp, vp, tok = d, k, v, t
		}
	}
	// wrap puts the declarations of shared iteration variables before the
	// loop (and the label with the loop).
	wrap := func(loop pcs) (pcs, bool) {
		if decl == nil {
			return loop, false
		}
		out := genAt(s.Pos(), "{ ").cat(decl)
		if lbl != nil {
			out = out.cat(w.orig(lbl.Pos(), lbl.Colon+1), gen(" "))
		}
		return out.cat(w.or(loop, s), gen(" }")), lbl != nil
	}
	switch w.coreOf(s.X).(type) {
	case *types.Chan:
		if !w.ins.api.has("RangeRecv") || !w.ins.api.has("RangeGate") || lbl != nil && w.fn.gotos[lbl.Label.Name] {
			break
		}
		c, brk := w.tmp(), w.tmp()
		site := w.site(s.For, w.typeStr(w.typeOf(s.X)))
		xp := w.load(s.X)
		rgate := rtName + ".RangeGate(" + c + ", " + site + ")"
		w.fn.rchan[s] = brk
		w.fn.rgate[s] = rgate
		w.pushBrk(s)
		body := w.blockInsEnd(s.Body, gen(" "+rtName+".RangeRecv("+c+", true, "+site+");"), gen("; "+rgate+" "))
		w.popBrk()
		loop := w.nodeSplice(s, rn(s.Key, kp), rn(s.Value, vp), tok, rn(s.X, gen(c)), rn(s.Body, body))
		out := genAt(s.Pos(), "{ "+c+" := ").cat(xp, gen("; "+brk+" := false; "), decl, gen(rgate+"; "))
		if lbl != nil {
			out = out.cat(w.orig(lbl.Pos(), lbl.Colon+1), gen(" "))
		}
		out = out.cat(loop, gen("; if !"+brk+" { "+rtName+".RangeRecv("+c+", false, "+site+") } }"))
		return out, lbl != nil
	case *types.Map:
		site := w.site(s.For, w.typeStr(w.typeOf(s.X)))
		xp := gen(w.h("MR")+"(").cat(w.load(s.X), gen(", "+site+")"))
		if lbl != nil && w.fn.gotos[lbl.Label.Name] {
			// A goto to the label cannot jump into the block below:
			// the loop's start alone is recorded.
			w.pushBrk(s)
			body := w.stmt(s.Body, false)
			w.popBrk()
			return wrap(w.nodeSplice(s, rn(s.Key, kp), rn(s.Value, vp), tok, rn(s.X, xp), rn(s.Body, body)))
		}
		// Each iteration reads the map again for its key and value (the
		// runtime's map iterator does, and -race records it): a write by
		// another goroutine between two iterations is seen by the later
		// one, so its key is read after that write, not at the loop's
		// start. The start is recorded too (an empty map is read).
		//
		//	{ m := MR(x, s); for k, v := range m { _ = MR(m, s); ... } }
		m := w.tmp()
		reread := " _ = " + w.h("MR") + "(" + m + ", " + site + ");"
		if head, pre, ok := w.orderedMapRange(s, m, decl); ok {
			// The body is a block of its own inside the loop's: its
			// `v := v` must not redeclare the loop's v.
			w.pushBrk(s)
			body := w.blockIns(s.Body, gen(reread))
			w.popBrk()
			out := genAt(s.Pos(), "{ "+m+" := ").cat(xp, gen("; "+head.keys+"; "))
			if lbl != nil {
				out = out.cat(w.orig(lbl.Pos(), lbl.Colon+1), gen(" "))
			}
			return out.cat(genAt(s.For, head.loop+" {"+pre+" "), body, gen(" } }")), lbl != nil
		}
		w.pushBrk(s)
		body := w.blockIns(s.Body, gen(reread))
		w.popBrk()
		loop := w.nodeSplice(s, rn(s.Key, kp), rn(s.Value, vp), tok, rn(s.X, gen(m)), rn(s.Body, body))
		out := genAt(s.Pos(), "{ "+m+" := ").cat(xp, gen("; "), decl)
		if lbl != nil {
			out = out.cat(w.orig(lbl.Pos(), lbl.Colon+1), gen(" "))
		}
		return out.cat(loop, gen(" }")), lbl != nil
	}
	xctx := cLoad
	if _, ok := w.coreOf(s.X).(*types.Array); ok {
		xctx = cAddr // ranging over an array copies it: not recorded
	}
	xp := w.expr(s.X, xctx)
	if e := w.rangeElems(s, xp); e != nil {
		xp = e
	}
	w.pushBrk(s)
	body := w.stmt(s.Body, false)
	w.popBrk()
	return wrap(w.nodeSplice(s, rn(s.Key, kp), rn(s.Value, vp), tok, rn(s.X, xp), rn(s.Body, body)))
}

func isBlank(e ast.Expr) bool {
	id, ok := unparen(e).(*ast.Ident)
	return ok && id.Name == "_"
}

// selectStmt rewrites a select so that the case that fired records its
// operation: channel operands and sent values are evaluated before the
// select, in source order (as Go does), into temporaries the cases use:
//
//	{ c1 := ch1; c2 := ch2; v2 := x; select { case v, ok := <-c1: rt.Received(c1, ok, s1); ... case c2 <- v2: rt.Sent(c2, s2); ... } }
func (w *fileRW) selectStmt(s *ast.SelectStmt, lbl *ast.LabeledStmt) (p pcs, whole bool) {
	w.pushBrk(s)
	defer w.popBrk()
	if !w.ins.api.has("Received") || !w.ins.api.has("Sent") || lbl != nil && w.fn.gotos[lbl.Label.Name] {
		return w.selectPlain(s), false
	}
	var pre pcs
	var rs []repl
	var cases []string // SelectGate's arguments
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		var header, insert pcs
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			ch := w.tmp()
			pre = pre.cat(gen(ch+" := "), w.load(comm.Chan), gen("; "))
			var val pcs
			switch {
			case w.isPure(comm.Value):
				val = w.origN(comm.Value)
			case w.sendsAsIs(comm.Chan, comm.Value):
				v := w.tmp()
				pre = pre.cat(gen(v+" := "), w.load(comm.Value), gen("; "))
				val = gen(v)
			default:
				v := w.tmp()
				pre = pre.cat(gen(v+" := "+w.h("E")+"("+ch+"); "+v+" = "), w.load(comm.Value), gen("; "))
				val = gen(v)
			}
			site := w.site(comm.Arrow, w.typeStr(w.typeOf(comm.Chan)))
			header = genAt(cc.Case, "case "+ch+" <- ").cat(val)
			insert = gen(" " + rtName + ".Sent(" + ch + ", " + site + ");")
			cases = append(cases, rtName+".SelCase{Site: "+site+", Send: true, Cap: cap("+ch+"), Ch: "+ch+"}")
		case *ast.ExprStmt:
			u := unparen(comm.X).(*ast.UnaryExpr)
			ch, ok := w.tmp(), w.tmp()
			pre = pre.cat(gen(ch+" := "), w.load(u.X), gen("; "))
			site := w.site(u.OpPos, w.typeStr(w.typeOf(u.X)))
			header = genAt(cc.Case, "case _, "+ok+" := <-"+ch)
			insert = gen(" " + rtName + ".Received(" + ch + ", " + ok + ", " + site + ");")
			cases = append(cases, recvCase(site, ch))
		case *ast.AssignStmt:
			u := unparen(comm.Rhs[0]).(*ast.UnaryExpr)
			ch := w.tmp()
			pre = pre.cat(gen(ch+" := "), w.load(u.X), gen("; "))
			site := w.site(u.OpPos, w.typeStr(w.typeOf(u.X)))
			cases = append(cases, recvCase(site, ch))
			if comm.Tok == token.DEFINE {
				ok := ""
				if len(comm.Lhs) == 2 && !isBlank(comm.Lhs[1]) {
					ok = comm.Lhs[1].(*ast.Ident).Name
				} else {
					ok = w.tmp()
				}
				header = genAt(cc.Case, "case ").cat(w.origN(comm.Lhs[0]), gen(", "+ok+" := <-"+ch))
				insert = gen(" " + rtName + ".Received(" + ch + ", " + ok + ", " + site + ");")
				break
			}
			if len(comm.Lhs) == 2 && !isBlank(comm.Lhs[1]) && !isBool(w.typeOf(comm.Lhs[1])) {
				// ok does not fit a bool: keep the assignment, assume ok.
				header = genAt(cc.Case, "case ").cat(w.nodeSplice(comm, rn(u.X, gen(ch))))
				if header == nil {
					header = genAt(cc.Case, "case ").cat(w.origN(comm))
				}
				insert = gen(" " + rtName + ".Received(" + ch + ", true, " + site + ");")
				break
			}
			rv, ok := "_", w.tmp()
			if !isBlank(comm.Lhs[0]) {
				rv = w.tmp()
			}
			header = genAt(cc.Case, "case "+rv+", "+ok+" := <-"+ch)
			insert = gen(" " + rtName + ".Received(" + ch + ", " + ok + ", " + site + ");")
			for i, l := range comm.Lhs {
				val := rv
				if i == 1 {
					val = ok
				}
				if isBlank(l) {
					continue
				}
				kind := w.lhsKind(l)
				target := w.lhsInline(l, kind, "W", "")
				if target == nil {
					target = w.origN(l)
				}
				insert = insert.cat(gen(" "), target, gen(" = "+val+";"))
			}
		}
		crs := []repl{}
		if header != nil {
			crs = append(crs, repl{cc.Case, cc.Colon, header}, insertAt(cc.Colon+1, insert))
		} else if cc.Comm == nil && w.ins.api.has("SelectDefault") && w.ins.api.has("Recovered") {
			// The default: no later panic is this select's send (see
			// rt.Recovered).
			crs = append(crs, insertAt(cc.Colon+1, gen(" "+rtName+".SelectDefault();")))
		}
		for _, st := range cc.Body {
			crs = append(crs, rn(st, w.stmt(st, true)))
		}
		rs = append(rs, rn(cc, w.nodeSplice(cc, crs...)))
	}
	sel := w.nodeSplice(s, rn(s.Body, w.nodeSplice(s.Body, rs...)))
	if pre == nil {
		return sel, false
	}
	if len(cases) > 0 && w.ins.api.has("SelectGate") {
		// In a replay the select waits here for its case's turn (see
		// rt.SelectGate): the case records itself only after it fired.
		// A default is passed on too: such a select does not wait for
		// its partner (rt's parkPartner).
		if hasDefaultClause(s) && w.ins.api.hasField("SelCase", "Default") {
			cases = append(cases, rtName+".SelCase{Site: -1, Default: true}")
		}
		pre = pre.cat(gen(rtName + ".SelectGate(" + strings.Join(cases, ", ") + "); "))
	}
	out := genAt(s.Pos(), "{ ").cat(pre)
	if lbl != nil {
		out = out.cat(w.orig(lbl.Pos(), lbl.Colon+1), gen(" "))
	}
	return out.cat(w.or(sel, s), gen(" }")), lbl != nil
}

// hasDefaultClause reports whether select s has a default clause.
func hasDefaultClause(s *ast.SelectStmt) bool {
	for _, c := range s.Body.List {
		if c.(*ast.CommClause).Comm == nil {
			return true
		}
	}
	return false
}

// recvCase is SelectGate's argument for a receive case on channel ch:
// with its channel and capacity, for its ticket (rt's holdback.go,
// "Rendezvous order").
func recvCase(site, ch string) string {
	return rtName + ".SelCase{Site: " + site + ", Cap: cap(" + ch + "), Ch: " + ch + "}"
}

// selectPlain rewrites only the operands and bodies of a select.
func (w *fileRW) selectPlain(s *ast.SelectStmt) pcs {
	var rs []repl
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		var crs []repl
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			crs = append(crs, rn(comm.Chan, w.expr(comm.Chan, cLoad)), rn(comm.Value, w.expr(comm.Value, cLoad)))
		case *ast.ExprStmt:
			u := unparen(comm.X).(*ast.UnaryExpr)
			crs = append(crs, rn(u.X, w.expr(u.X, cLoad)))
		case *ast.AssignStmt:
			u := unparen(comm.Rhs[0]).(*ast.UnaryExpr)
			crs = append(crs, rn(u.X, w.expr(u.X, cLoad)))
		}
		for _, st := range cc.Body {
			crs = append(crs, rn(st, w.stmt(st, true)))
		}
		rs = append(rs, rn(cc, w.nodeSplice(cc, crs...)))
	}
	return w.nodeSplice(s, rn(s.Body, w.nodeSplice(s.Body, rs...)))
}

// orderedHead is the start of a map range loop over rt.MapEntries.
type orderedHead struct {
	keys string // the statement that takes the map's entries
	loop string // the for clause, up to the body
}

// orderedMapRange rewrites `for k, v := range m` (m the temporary holding
// the map) to range over the map's keys in rt.MapEntries' order, the
// same in every run (rt/maporder.go):
//
//	ks, vs := rt.MapEntries(m); for i, k := range ks { v, ok := m[k]; if !ok { if k == k { continue }; v = vs[i] }; _ = v; ... }
//
// A key deleted before the loop comes to it is skipped, as Go's range
// skips it; only a NaN key, which no lookup finds, takes its value from
// the snapshot. It returns the loop's head, the statements that start its
// body, and false when the rewrite does not apply: a range that assigns
// (its operands may be any expressions), and a loop whose iteration
// variables are shared (decl: before Go 1.22, captured).
func (w *fileRW) orderedMapRange(s *ast.RangeStmt, m string, decl pcs) (orderedHead, string, bool) {
	if decl != nil || s.Tok == token.ASSIGN || !w.ins.api.has("MapEntries") {
		return orderedHead{}, "", false
	}
	name := func(e ast.Expr) string {
		if e == nil || isBlank(e) {
			return ""
		}
		if id, ok := e.(*ast.Ident); ok {
			return id.Name
		}
		return "?"
	}
	k, v := name(s.Key), name(s.Value)
	if k == "?" || v == "?" {
		return orderedHead{}, "", false
	}
	if k == "" {
		k = w.tmp()
	}
	ks, vs, i, ok := w.tmp(), w.tmp(), w.tmp(), w.tmp()
	entries := rtName + ".MapEntries(" + m + ")"
	if v == "" {
		return orderedHead{keys: ks + ", _ := " + entries, loop: "for _, " + k + " := range " + ks},
			" if _, " + ok + " := " + m + "[" + k + "]; !" + ok + " && " + k + " == " + k + " { continue };", true
	}
	return orderedHead{keys: ks + ", " + vs + " := " + entries, loop: "for " + i + ", " + k + " := range " + ks},
		" " + v + ", " + ok + " := " + m + "[" + k + "]; if !" + ok + " { if " + k + " == " + k + " { continue }; " + v + " = " + vs + "[" + i + "] }; _ = " + v + ";", true
}
