package depend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// loopEntered reports whether a and b, two writes of one unit, are a
// write before a loop whose every round waits and a write in that loop's
// first round, in the innermost code that runs both (their common
// activation): cilium/statedb's derive job commits once to register its
// change iterator (derive.go:76), then once per round (:120), each round
// ending in a select on the next batch; another goroutine's ReadTxn
// between the two commits reads a committed root (write_txn.go:444 av).
// The recording ends a unit at each wait, so the loop's later rounds are
// units that begin at its head, and each round's write leaves a state
// that others read between two units; the first round is joined to the
// code before the loop only because no wait comes before it. The loop's
// entry is then a boundary between two units, as its head is between two
// rounds, and the state there is what the code before the loop leaves
// for the loop. The waits are the loop's own code's: a blocking select,
// a receive (a range over a channel), a send, time.Sleep, a WaitGroup's
// or a Cond's Wait. Every way a could be followed by b in one unit (the
// events name their method, not which call of it ran) must be such an
// entry: two writes in one round, a loop with a round that does not
// wait, or straight code (two commits in a row) stay judged.
func (x *Index) loopEntered(a, b Event) bool {
	c := common(a.Frames, b.Frames)
	if c == 0 {
		return false
	}
	fn := x.function(a.Frames[c-1].Site)
	if fn == nil {
		return false
	}
	sc := x.scope(fn)
	as, bs := x.liftTo(fn, x.leadsTo(a, c, sc)), x.liftTo(fn, x.leadsTo(b, c, sc))
	found := false
	for _, ia := range as {
		for _, ib := range bs {
			if !waitFree(ia, ib) {
				continue // not one unit: a wait falls between
			}
			if !enteredLoop(ia, ib) {
				return false
			}
			found = true
		}
	}
	return found
}

// waitFree reports whether b can run after a in one activation with no
// wait between (b may be a again, round a loop).
func waitFree(a, b ssa.Instruction) bool {
	after := false
	for _, in := range a.Block().Instrs {
		if after {
			if in == b {
				return true
			}
			if waits(in) {
				return false
			}
		}
		after = after || in == a
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), a.Block().Succs...)
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[u] {
			continue
		}
		seen[u] = true
		blocked := false
		for _, in := range u.Instrs {
			if in == b {
				return true
			}
			if waits(in) {
				blocked = true
				break
			}
		}
		if !blocked {
			work = append(work, u.Succs...)
		}
	}
	return false
}

// enteredLoop reports whether b lies in a loop that a lies outside of and
// whose every round waits: no path from its header round to it again
// passes no wait.
func enteredLoop(a, b ssa.Instruction) bool {
	for h := b.Block(); h != nil; h = h.Idom() {
		body := loopBody(h)
		if body == nil || !body[b.Block()] || body[a.Block()] {
			continue
		}
		if everyRoundWaits(h, body) {
			return true
		}
	}
	return false
}

// loopBody returns the blocks of the natural loop headed by h (those h
// dominates that reach h again), nil when h heads none.
func loopBody(h *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	body := map[*ssa.BasicBlock]bool{}
	var work []*ssa.BasicBlock
	for _, p := range h.Preds {
		if h.Dominates(p) {
			work = append(work, p)
		}
	}
	if len(work) == 0 {
		return nil
	}
	body[h] = true
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		if body[u] {
			continue
		}
		body[u] = true
		for _, p := range u.Preds {
			if h.Dominates(p) {
				work = append(work, p)
			}
		}
	}
	return body
}

// everyRoundWaits reports whether every path from the loop's header h
// round to h again passes a wait.
func everyRoundWaits(h *ssa.BasicBlock, body map[*ssa.BasicBlock]bool) bool {
	blocks := func(u *ssa.BasicBlock) bool {
		for _, in := range u.Instrs {
			if waits(in) {
				return true
			}
		}
		return false
	}
	if blocks(h) {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), h.Succs...)
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		if u == h {
			return false
		}
		if !body[u] || seen[u] {
			continue
		}
		seen[u] = true
		if !blocks(u) {
			work = append(work, u.Succs...)
		}
	}
	return true
}

// waits reports whether in blocks its goroutine until another acts (the
// operations that end a unit in the recording): a blocking select, a
// receive, a send, time.Sleep, a WaitGroup's or a Cond's Wait.
func waits(in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.Select:
		return in.Blocking
	case *ssa.UnOp:
		return in.Op == token.ARROW
	case *ssa.Send:
		return true
	case ssa.CallInstruction:
		fn := in.Common().StaticCallee()
		if fn == nil || fn.Pkg == nil {
			return false
		}
		switch fn.Pkg.Pkg.Path() + "." + fn.RelString(fn.Pkg.Pkg) {
		case "time.Sleep", "sync.(*WaitGroup).Wait", "sync.(*Cond).Wait":
			return true
		}
	}
	return false
}
