// Package lazynode (lazynodefixed) is lazynode with the node made whole
// before it is published, as lrita/cmap's getInode does (cmap.go:128-144,
// pecanvet issue 26, session 49, branch lazy49).
//
// Nothing should be reported: a Full between Store's publication of the
// node (node.go:28) and its insert (node.go:39) finds the node and the
// set without the key, which is the order with Full first: Full would
// have found nil, re-checked it under the lock and made an equal node of
// the same constants, and Store would have found that node and inserted
// into it (static/depend's `initRedone`). main's build before it
// reported node.go:28 asv (inconsistent snapshot); lrita/cmap's
// cmap.go:140 asv of session 48's trial 30 was this.
package lazynode
