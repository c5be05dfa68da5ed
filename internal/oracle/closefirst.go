package oracle

import (
	"fmt"
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// CloseFirstKeys returns the sends on a closed channel that some
// schedule reaches, for the close-then-send pattern p (race/close-send):
// for each report key (pattern.Key of close, send), a witness whose
// Schedule runs the close while the send's goroutine waits at the send,
// and then the send. Only a send that happens before the close in the
// recorded run is asked about (an unordered pair is the access
// search's), and the channel's own matches are not taken from the
// recording: a receive takes the oldest send offered and not taken, an
// unbuffered sender goes on once its send is taken, and a receiver that
// took another send than in the recording stops there (what it does with
// another value is not recorded). Every other happens-before edge, and
// lock exclusion, holds as recorded. Every interleaving is explored, the
// events before the send included.
//
// It is exponential: for traces of a few dozen events.
func (m *Model) CloseFirstKeys(p *pattern.Pattern) map[string]Witness {
	out := map[string]Witness{}
	first := map[int32]int{}
	for e, ev := range m.ev {
		if _, ok := first[ev.Obj]; ev.Op == trace.Close && !ok {
			first[ev.Obj] = e
		}
	}
	for s, ev := range m.ev {
		c, ok := first[ev.Obj]
		if !ok || ev.Op != trace.Send || ev.Flags&trace.FlagClosed != 0 || s > c || m.g[s] == m.g[c] || !m.POR(s, c) {
			continue
		}
		inst := []int{c, s}
		key := pattern.Key(p, m.Sites(inst))
		if _, ok := out[key]; ok {
			continue
		}
		if sched, ok := m.closeFirst(s, c); ok {
			out[key] = Witness{Pattern: p, Inst: inst, Schedule: append(sched, s)}
		}
	}
	return out
}

// closeFirst searches for a schedule that runs close c while send s's
// goroutine waits at s, under CloseFirstKeys's rules.
func (m *Model) closeFirst(s, c int) ([]int, bool) {
	ch := m.ev[s].Obj
	unbuffered := m.ev[s].Arg == 0
	onCh := func(e int, op trace.Op) bool {
		ev := m.ev[e]
		return ev.Obj == ch && ev.Op == op && ev.Flags&trace.FlagClosed == 0
	}
	var sends, recvs []int
	for e := range m.ev {
		if onCh(e, trace.Send) {
			sends = append(sends, e)
		} else if onCh(e, trace.Recv) {
			recvs = append(recvs, e)
		}
	}
	matched := map[int]int{}
	for k := range min(len(sends), len(recvs)) {
		matched[recvs[k]] = sends[k]
	}
	// match: a POR edge of the channel's recorded matching.
	match := func(from, to int) bool {
		if onCh(from, trace.Send) && onCh(to, trace.Recv) {
			return true
		}
		if onCh(from, trace.Recv) && unbuffered && m.po[to] > 0 {
			return onCh(m.seq[m.g[to]][m.po[to]-1], trace.Send)
		}
		return false
	}
	pos := make([]int, len(m.seq))
	frozen := make([]bool, len(m.seq))
	var offered, path []int
	ran := func(e int) bool { return pos[m.g[e]] > m.po[e] }
	seen := map[string]bool{}
	var dfs func() bool
	dfs = func() bool {
		if ran(c) {
			return true
		}
		key := fmt.Sprint(pos, offered, frozen)
		if seen[key] {
			return false
		}
		seen[key] = true
		for g := range m.seq {
			if frozen[g] || pos[g] == len(m.seq[g]) {
				continue
			}
			e := m.seq[g][pos[g]]
			if e == s || !m.canRun(e, pos, ran, match) {
				continue
			}
			if slices.ContainsFunc(offered, func(x int) bool { return unbuffered && m.g[x] == g }) {
				continue // its send is not taken yet
			}
			isRecv := onCh(e, trace.Recv)
			if isRecv && len(offered) == 0 {
				continue
			}
			saveOff, saveFrozen := slices.Clone(offered), frozen[g]
			switch {
			case onCh(e, trace.Send):
				offered = append(offered, e)
			case isRecv:
				if matched[e] != offered[0] {
					frozen[g] = true
				}
				offered = offered[1:]
			}
			pos[g]++
			path = append(path, e)
			if dfs() {
				return true
			}
			pos[g]--
			path = path[:len(path)-1]
			offered, frozen[g] = saveOff, saveFrozen
		}
		return false
	}
	if dfs() {
		return path, true
	}
	return nil, false
}

// canRun reports whether e, its goroutine's next event, may run: its
// happens-before predecessors other than match edges have run, and no
// other goroutine holds a lock it acquires in a conflicting mode.
func (m *Model) canRun(e int, pos []int, ran func(int) bool, match func(from, to int) bool) bool {
	for _, a := range m.preds[e] {
		if !ran(a) && !match(a, e) {
			return false
		}
	}
	ev := m.ev[e]
	if ev.Op.IsAcquire() {
		write := ev.Op == trace.Lock
		for h, p := range pos {
			if p == 0 || h == m.g[e] {
				continue
			}
			held := m.locks[m.seq[h][p-1]]
			if held.has(ev.Obj, true) || (write && held.has(ev.Obj, false)) {
				return false
			}
		}
	}
	return true
}
