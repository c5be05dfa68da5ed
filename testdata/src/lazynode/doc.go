// Package lazynode is a real module's cousin (pecanvet issue 26,
// session 49, branch lazy49; lrita/cmap's Cmap, whose getInode makes
// the map's inode on first use by double-checked initialization,
// cmap.go:128-144, and publishes it with an atomic store, cmap.go:140).
//
// Known bug: the initializer publishes the node before it sets its
// limit (node.go:28, then node.go:29, under Map.mu only). A Full on the
// fast path between the publication and the limit's store finds the
// node, reads its limit 0 and says an empty set is full, which no order
// of the whole calls shows (a data race on node.limit, and an
// atomic-set-serializability violation on Map.node, node.limit: a
// half-built object). The test asserts the set is not full; the sleep
// keeps the ordinary run passing. static/depend's `initRedone` must not
// excuse it (the store is not the initializer's last act).
//
// lazynodefixed is silent by design: lrita's shape, the node made
// whole of constants before it is published; a Full between Store's
// publication (node.go:28) and its insert (node.go:39) sees the node
// and the set without the key: the order with Full first, which would
// have made an equal node itself (static/depend's `initRedone`; main's
// build reported its node.go:28 asv, inconsistent snapshot; lrita/cmap's
// cmap.go:140 asv of session 48's trial 30 was this).
package lazynode
