// Package syncmapctafixed is the fixed twin of package syncmapcta.
//
// Fixed: Submit stores a first score with LoadOrStore and replaces a lower
// one with a CompareAndSwap loop, so no other Submit can fall between the
// check and the act unnoticed. Nothing should be reported.
package syncmapctafixed
