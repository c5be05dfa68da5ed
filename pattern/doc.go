// Package pattern defines access-anomaly (AA) patterns: what pecanvet looks
// for in a trace. Data races, atomicity violations (AV),
// atomic-set-serializability violations (ASV), and any interleaving a user
// wants to describe, are all written in one general pattern language (PECAN,
// section 3).
//
// # Model
//
// A pattern is a group of equal-length sequences [E, T, SV, AR, AT]. Position
// i of each sequence describes the pattern's i-th event:
//
//	E[i]   its name (e1, e2, … by default); names are for people only
//	T[i]   the thread (goroutine) that performs it
//	SV[i]  the shared variable (memory location) it accesses
//	AR[i]  the atomic region (unit of work) it belongs to
//	AT[i]  its access type: r (read) or w (write)
//
// T, SV and AR hold variables. An instance of a pattern binds its n events
// to n distinct memory accesses of a trace such that:
//
//   - Events with the same T name are accesses of the same goroutine; events
//     with different T names are accesses of different goroutines.
//   - Events with the same SV name access the same memory location; events
//     with different SV names access different locations.
//   - Events with the same AR name belong to the same atomic-region instance;
//     events with different AR names belong to different instances. A region
//     instance belongs to one goroutine, so the same AR name implies the same
//     T name (Parse and Validate reject a pattern that breaks this). Two
//     different AR names may still share a T name: two regions of one
//     goroutine.
//   - AT r matches an access that reads, w one that writes (an atomic load
//     reads, a store writes, a read-modify-write does both). Plain reads and
//     writes always match. sync/atomic accesses match any event of an
//     Atomic pattern; in a pattern that is not Atomic (races are never
//     Atomic) they match too, but an instance must then hold at least one
//     plain access: as in the race detector, a sync/atomic access races
//     with a plain access of its location, and two sync/atomic accesses
//     never race.
//   - In an Acting pattern (option acting) the remote events, those of
//     threads other than event 1's, must be reads, and match only atomic
//     loads at acting read sites: sites where some load of the trace is
//     followed, in its unit of work, by an atomic write of the object it
//     read (a check-then-act's check), reached through the same calls from
//     the one where that write was decided (a getter's load is a check
//     only where the caller that acted called it). Matching them needs the
//     trace, so static analysis leaves such patterns out.
//
// A schedule (a feasible permutation of the trace) realizes an instance when
// the instance's accesses occur in it in E's order. For an Adjacent pattern
// (data races) they must also run back to back: no other event of the
// schedule lies between the accesses bound to e_i and e_i+1.
//
// In memory the variables are normalized: each of T, SV and AR numbers its
// names by first occurrence, 0, 1, 2, …, so T=a-b-a becomes [0 1 0] whatever
// the names are. The names themselves are kept for printing: TNames[T[i]] is
// the name of event i's thread, and likewise SVNames and ARNames.
//
// # Syntax
//
// Patterns are written one per line, or separated by ';'. A '#' starts a
// comment that runs to the end of the line; blank lines are ignored.
//
//	pattern  = head { option | field } .
//	head     = kind "/" name .                  (no spaces inside)
//	option   = "adjacent" | "atomic" | "chan" | "acting" .
//	field    = key "=" element { "-" element } .
//	key      = "E" | "T" | "SV" | "AR" | "AT" .
//	element  = identifier .                     ([A-Za-z_][A-Za-z0-9_]*)
//
// kind and name consist of letters, digits, '_', '.' and '-', and start with a
// letter, digit or '_'. The kind is "race", "av", "asv" or any kind a user
// chooses; kind/name must be unique within a set. Options and fields follow
// the head in any order, separated by white space; spaces (not newlines) are
// also allowed around '=' and '-'. Keys, options and AT's elements (r, w) are
// case-insensitive. T, SV, AR and AT are required; E defaults to e1-e2-…-en.
// For example, the read–write data race and an ASV pattern of the atomic-sets
// paper are
//
//	race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w
//	asv/asv-9 atomic T = t1 - t2 - t2 - t1  SV = s1 - s1 - s2 - s2  AR = u1 - u2 - u2 - u1  AT = w - r - r - w
//
// A pattern is valid when its sequences have equal lengths, it has at least
// two events and at least two distinct threads, each AR name is used with a
// single T name, E's names are distinct, and it is not both Atomic and of
// kind "race". Errors are reported as NAME:LINE:COL: message, with 1-based
// lines and byte columns.
//
// # Built-in sets
//
// Builtin returns the sets "race" (RW, WR, WW: adjacent, not Atomic, so
// at least one of the two accesses is plain), "av"
// (RWR, RWW, WRW, WWR, WWW on one variable, and RRW: acting, another
// goroutine's check inside a unit's check-then-act) and "asv" (the 14 patterns of
// Figure 2 of the atomic-sets paper, asv-1 … asv-14, in the figure's order),
// and "all", their union. Resolve turns a -patterns flag value into patterns.
package pattern
