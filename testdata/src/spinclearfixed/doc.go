// Package spinclearfixed is spinclear fixed: reugn/async v0.10.0's
// ConcurrentMap as it is. Clear stores clearing true, swaps in an empty
// map and stores clearing false in a defer; smap() sleeps while clearing
// is true and loads the map only once it reads false. Nothing should be
// reported.
//
// A Get that reads clearing between Clear's two stores (map.go:25 W,
// map.go:45 R, map.go:26 W: an av WRW that replay reproduces) sees the
// intermediate true, but that value only sends it round its wait loop,
// which sleeps and reads again, and it leaves only on a false it reads
// afresh, the one Clear's deferred store writes: it loads the map after
// Clear, as a serial order with the whole Clear first does
// (static/depend's `spinWaits`; async's map_concurrent.go:38 av of
// session 52's trial 34 was this).
package spinclearfixed
