// Package getorsetfixed is getorset fixed: Get looks the key up and
// inserts the default in one critical section. What is left is silent by
// design: TestHas's Has looks one key up twice, in two calls of lookup,
// and another goroutine's Set of that key can fall between them (an
// atomicity violation on the map that replay reproduces), but each
// lookup's result is used apart from the other's: an interleaving without
// effect. (Two different keys with a Set of one of them between are no
// violation at all: map element accesses are keyed.) Nothing should be
// reported.
package getorsetfixed
