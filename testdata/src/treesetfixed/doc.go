// Package treesetfixed is the fixed twin of package treeset
// (java.util.TreeSet in a synchronized wrapper; PECAN Table 1).
//
// Fixed: Add links the node and increments size in the same critical
// section, and calls the OnAdd listener afterwards, without the lock. The
// atomic set {links, size} is only ever updated atomically, so nothing
// should be reported.
package treesetfixed
