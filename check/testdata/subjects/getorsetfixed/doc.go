// Package getorsetfixed is getorset fixed: Get looks the key up and
// inserts the default in one critical section. What is left is silent by
// design: Has looks up two keys in two calls of lookup, and another
// goroutine's Set can fall between them (an atomicity violation on the
// map that replay reproduces), but each lookup's result is used apart
// from the other's: an interleaving without effect. Nothing should be
// reported.
package getorsetfixed
