// Package reservefixed is reserve with the check and the slot it grants
// in one critical section (pool.go:22-30), as redigo's GetContext has
// them. Two shapes stay that the dependence criterion must not report:
// the check's read is followed by the unit's own `p.active++` under the
// same lock, so no other Get's write can make it stale (a claimed read,
// check's claims: the second Get's increment falls after that one, before
// the failed dial's `p.active--`, pool.go:34); and the second Get may
// read the count between the first Get's increment and its give-back
// (pool.go:27 and :34) and be refused a slot (ErrExhausted, which the
// test accepts): the slot is held while the dial runs, and the two
// writes cancel (static/depend's undone). Nothing should be reported.
package reservefixed
