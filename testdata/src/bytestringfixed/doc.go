// Package bytestringfixed is the fixed twin of package bytestring.
//
// Fixed: String and Extend read the bytes with the lock held. Nothing should be
// reported.
package bytestringfixed
