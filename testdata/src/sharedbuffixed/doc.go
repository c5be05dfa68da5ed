// Package sharedbuffixed is the fixed twin of package sharedbuf.
//
// Fixed: the Journal's mutex guards its buffer, in Add and in Lines.
// Nothing should be reported.
package sharedbuffixed
