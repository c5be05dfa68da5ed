package pattern

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// The built-in sets, in pattern syntax.
var builtinSrc = []struct{ name, src string }{
	{"race", `
# Data races (PECAN, section 3): two goroutines access one location, at least
# one of them writes, and the accesses run back to back.
race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w
race/WR adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-r
race/WW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w
`},
	{"av", `
# Single-variable atomicity violations: a unit of work u1 accesses s1 twice
# and another goroutine's access falls between the two.
av/RWR atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-r
av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w
av/WRW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=w-r-w
av/WWR atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=w-w-r
av/WWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=w-w-w
# A check-then-act that another goroutine's check falls inside: both see
# the old value, and both act on it. The remote read counts only at an
# acting site (a load whose value decides a write of its unit), and the
# report needs an effect: the remote goroutine then takes a path the
# recorded run did not show.
av/RRW atomic acting T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w
`},
	{"asv", `
# Atomic-set-serializability violations: the 14 problematic data access
# patterns of Figure 2 of Vaziri et al.'s atomic-sets paper, in its order
# (its text says 11; the figure has 14). Unit of work u is u1 on thread t1,
# u' is u2 on t2; locations l and l1 are s1, l2 is s2.
asv/asv-1  atomic T=t1-t2-t1    SV=s1-s1-s1    AR=u1-u2-u1    AT=r-w-w   # R_u(l) W_u'(l) W_u(l)
asv/asv-2  atomic T=t1-t2-t1    SV=s1-s1-s1    AR=u1-u2-u1    AT=r-w-r   # R_u(l) W_u'(l) R_u(l)
asv/asv-3  atomic T=t1-t2-t1    SV=s1-s1-s1    AR=u1-u2-u1    AT=w-r-w   # W_u(l) R_u'(l) W_u(l)
asv/asv-4  atomic T=t1-t2-t1    SV=s1-s1-s1    AR=u1-u2-u1    AT=w-w-r   # W_u(l) W_u'(l) R_u(l)
asv/asv-5  atomic T=t1-t2-t1    SV=s1-s1-s1    AR=u1-u2-u1    AT=w-w-w   # W_u(l) W_u'(l) W_u(l)
asv/asv-6  atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=w-w-w-w # W_u(l1) W_u'(l1) W_u'(l2) W_u(l2)
asv/asv-7  atomic T=t1-t2-t2-t1 SV=s1-s2-s1-s2 AR=u1-u2-u2-u1 AT=w-w-w-w # W_u(l1) W_u'(l2) W_u'(l1) W_u(l2)
asv/asv-8  atomic T=t1-t2-t1-t2 SV=s1-s2-s2-s1 AR=u1-u2-u1-u2 AT=w-w-w-w # W_u(l1) W_u'(l2) W_u(l2) W_u'(l1)
asv/asv-9  atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=w-r-r-w # W_u(l1) R_u'(l1) R_u'(l2) W_u(l2)
asv/asv-10 atomic T=t1-t2-t2-t1 SV=s1-s2-s1-s2 AR=u1-u2-u2-u1 AT=w-r-r-w # W_u(l1) R_u'(l2) R_u'(l1) W_u(l2)
asv/asv-11 atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=r-w-w-r # R_u(l1) W_u'(l1) W_u'(l2) R_u(l2)
asv/asv-12 atomic T=t1-t2-t2-t1 SV=s1-s2-s1-s2 AR=u1-u2-u2-u1 AT=r-w-w-r # R_u(l1) W_u'(l2) W_u'(l1) R_u(l2)
asv/asv-13 atomic T=t1-t2-t1-t2 SV=s1-s2-s2-s1 AR=u1-u2-u1-u2 AT=r-w-r-w # R_u(l1) W_u'(l2) R_u(l2) W_u'(l1)
asv/asv-14 atomic T=t1-t2-t1-t2 SV=s1-s2-s2-s1 AR=u1-u2-u1-u2 AT=w-r-w-r # W_u(l1) R_u'(l2) W_u(l2) R_u'(l1)
`},
	{"chan", `
# Channel races (Go): a send on a channel another goroutine closes
# (panic: send on closed channel), and two closes (panic: close of closed
# channel). The events are channel operations; a send stands for r, a close
# for w, as in the race detector's model. Two closes are no data race (the
# race detector reports none): check reports close-close only with an
# effect, the second close's panic escaping or what its recover does.
race/send-close  adjacent chan T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w
race/close-send  adjacent chan T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-r
race/close-close adjacent chan T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w
`},
	{"deadlock", `
# Lock-order inversions (issue 29): goroutine t1 holds lock s1 and waits
# for s2 while t2 holds s2 and waits for s1. The events are lock
# acquisitions in schedule order: t1 takes s1, t2 takes s2, then each
# asks for the other's lock and neither can go on. Proved only by a
# replay that deadlocks there.
deadlock/lock-order lock T=t1-t2-t1-t2 SV=s1-s2-s2-s1 AR=u1-u2-u1-u2 AT=w-w-w-w
# A recursive read lock behind a waiting writer: t1 holds RWMutex s1 for
# reading, t2 asks for it for writing (and waits for t1's read lock),
# then t1 asks for a read lock again, which queues behind the waiting
# writer (sync.RWMutex: a blocked Lock keeps new readers out). Neither
# goes on; proved only by a replay that deadlocks there.
deadlock/rlock-writer lock T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-r
# A deadlock through sync.Once (teivah/broadcast v0.1.0): a Once is a
# lock (s2) that the call running its function holds while the function
# runs, and that every other call of Do waits for. t1 holds lock s1 (e1)
# and calls Do on s2 (e3); t2's call of Do on s2 (e2) found the function
# run in the recorded run, and another call of Do at its site ran a
# function that takes s1. Another schedule lets t2's call run its own
# function first: t1 then waits in Do, and the function for s1. Proved
# only by a replay that deadlocks there.
deadlock/once-run lock T=t1-t2-t1 SV=s1-s2-s2 AR=u1-u2-u1 AT=w-w-w
# A lost signal: t1's Cond.Signal (or Broadcast) e1 woke t2's Cond.Wait
# in the recorded run; e2 is that Wait's entry. Another schedule signals
# before t2 waits: Signal wakes only current waiters, so the Wait blocks
# forever. Proved only by a replay that ends with t2 blocked in that Wait.
deadlock/lost-signal cond T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-r
# A double lock by schedule: e2 is a read of t2, made while t2 holds a
# mutex, in the condition of a branch that locks that mutex again (the
# source says so); the recorded run read the old value and did not take
# it. e1 is a later write of t1 to the same variable. Another schedule
# runs e1 first: t2 takes the branch and blocks forever in a Lock (or an
# RLock) of the mutex it holds. Proved only by a replay that ends with
# t2 blocked there.
deadlock/double-lock relock T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-r
# The same, from a read that saw the write: e1 is the read of t1 at such
# a site, e2 the write of t2 it read in the recorded run (the new value
# kept t1 off the branch). Another schedule runs e1 first, on the older
# value.
deadlock/double-lock-stale relock T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w
# A lock-order inversion down the path a stale read picks (moby#4951):
# e1 is a read of t1, made while t1 holds lock A, at a site whose value
# decides a path that takes another mutex (the source says so); e2 is
# the write of t2 it read in the recorded run, made under A, which t2
# took while holding another lock B. Another schedule runs e1 first, on
# the older value: t1 goes, holding A, for a lock t2 holds while t2
# waits for A. Proved only by a replay that ends with each of the two
# blocked in a lock the other holds.
deadlock/lock-order-stale lock relock T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w
`},
	{"leak", `
# Goroutine leaks (issue 29): e1 is a channel operation that a select of
# t1 performed in the recorded run, e2 its partner in t2 (a receive and
# the send it took, or the reverse). Another schedule lets the select
# take its other branch (a timeout, ctx.Done(), default, or a stop
# channel that a third goroutine closes, its close run first), and e2 can then
# never complete. Proved only by a replay that ends its test with e2's
# goroutine blocked there, on a channel no live goroutine can reach.
leak/select-branch leak T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w
# A stolen partner: e2 and its partner (a send and its receive on an
# unbuffered channel) were matched in the recorded run; e1, t1's
# operation of e2's direction on the same channel (a competing receiver,
# or sender), takes the partner first in another schedule. Every other
# operation that could complete e2 comes after it, so e2 blocks forever.
# Proved only by a replay that ends its test with e2's goroutine blocked.
leak/stolen-partner leak stolen T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-r
`},
	{"sync", `
# sync misuse by schedule (issue 29): e1 is a WaitGroup.Wait of t1 that
# blocked in the recorded run, e2 the Add of t2 that raised the counter
# from 0 before it. Nothing orders e2 before e1, so another schedule runs
# the Wait first: it finds the counter at 0 and returns at once, while
# t2's work is still to come. Proved only by a replay in which the Wait
# returns before the Add runs.
sync/wg-add-after-wait wg T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w
`},
	{"order", `
# Order violations between two critical sections of one lock (Tu et al.,
# ASPLOS'19: the commonest non-deadlock bugs of Go's message-passing-free
# code): every access holds the lock, so there is no race and no
# atomicity violation, and the bug is the other serial order of two whole
# sections. e1 is the Lock of t1's section, which ran later in the
# recorded run, e2 the Lock of t2's earlier one; the two sections conflict
# (one writes a variable the other reads or writes, or closes a channel
# the other sends on or closes), and nothing but the lock orders t2's
# section before t1's path to its own. Another schedule runs t1's whole
# section first (grpc-go#2371: Close nils the balancer that the service
# config's handler then dereferences). Proved only by a replay that
# panics in the package's own code, not in its tests: both orders are
# serial ones, and a test that kept the two apart by a sleep may assert
# the recorded order's outcome.
order/sections order T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w
`},
}

// allSet is the name of the union of the built-in sets.
const allSet = "all"

var builtins = sync.OnceValue(func() map[string][]*Pattern {
	m := map[string][]*Pattern{}
	for _, b := range builtinSrc {
		pats := MustParse(b.src)
		for _, p := range pats {
			p.Pos = "built-in set " + b.name
		}
		m[b.name] = pats
		m[allSet] = append(m[allSet], pats...)
	}
	return m
})

// BuiltinNames returns the names of the built-in sets: "race", "av",
// "asv", "chan", "deadlock", "leak", "sync", "order" and "all" (their union).
func BuiltinNames() []string {
	names := make([]string, 0, len(builtinSrc)+1)
	for _, b := range builtinSrc {
		names = append(names, b.name)
	}
	return append(names, allSet)
}

// Builtin returns a fresh copy of the built-in set called name, and whether
// there is one.
func Builtin(name string) ([]*Pattern, bool) {
	pats, ok := builtins()[name]
	if !ok {
		return nil, false
	}
	out := make([]*Pattern, len(pats))
	for i, p := range pats {
		out[i] = p.Clone()
	}
	return out, true
}

// Resolve turns a -patterns flag value into patterns: a comma-separated list
// of built-in set names and/or files; or, if the value contains '=', inline
// pattern text (parsed with name "-patterns"). A built-in name wins over a
// file of the same name (write ./race for the file). An item that is neither
// a built-in name nor an existing file is an error naming it and listing the
// built-ins. A pattern given twice (same Kind/Name) is an error unless both
// definitions are Equal, in which case the first is kept. The empty string
// (or only spaces) means "all".
func Resolve(spec string) ([]*Pattern, error) {
	if strings.TrimSpace(spec) == "" {
		pats, _ := Builtin(allSet)
		return pats, nil
	}
	if strings.Contains(spec, "=") {
		pats, err := Parse(spec, "-patterns")
		if err != nil {
			return nil, err
		}
		if len(pats) == 0 {
			return nil, fmt.Errorf("-patterns: no patterns in %q", spec)
		}
		return pats, nil
	}
	var out []*Pattern
	index := map[string]*Pattern{}
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("-patterns: empty item in %q", spec)
		}
		pats, ok := Builtin(item)
		if !ok {
			var err error
			if pats, err = parseFile(item); err != nil {
				return nil, err
			}
		}
		for _, p := range pats {
			if q, dup := index[p.ID()]; dup {
				if !q.Equal(p) {
					return nil, fmt.Errorf("%s: pattern %s differs from the one defined at %s", p.Pos, p.ID(), q.Pos)
				}
				continue
			}
			index[p.ID()] = p
			out = append(out, p)
		}
	}
	return out, nil
}

// parseFile parses the patterns of the file named by a -patterns item.
func parseFile(item string) ([]*Pattern, error) {
	fi, err := os.Stat(item)
	if err != nil || fi.IsDir() {
		return nil, fmt.Errorf("-patterns: %q is neither a built-in pattern set (%s) nor a pattern file",
			item, strings.Join(BuiltinNames(), ", "))
	}
	data, err := os.ReadFile(item)
	if err != nil {
		return nil, fmt.Errorf("-patterns: %v", err)
	}
	pats, err := Parse(string(data), item)
	if err != nil {
		return nil, err
	}
	if len(pats) == 0 {
		return nil, fmt.Errorf("-patterns: %s defines no patterns", item)
	}
	return pats, nil
}
