// Package namedreturnfixed is the fixed twin of package namedreturn.
//
// Fixed: the bulk discount applies to the total only, and both returns
// return the named result unit as itself (`return unit, total`), which
// writes nothing; the audit goroutine's read races with nothing. Nothing
// should be reported.
package namedreturnfixed
