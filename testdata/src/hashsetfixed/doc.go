// Package hashsetfixed is the fixed twin of package hashset
// (java.util.HashSet in a synchronized wrapper; PECAN Table 1).
//
// Fixed: Add looks the element up, puts it and counts it in one critical
// section. Nothing should be reported.
package hashsetfixed
