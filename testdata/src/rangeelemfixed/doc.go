// Package rangeelemfixed is the fixed twin of package rangeelem.
//
// Fixed: Total holds the lock while it ranges over the counters, so every
// access to an element is made with the lock held. Nothing should be
// reported.
package rangeelemfixed
