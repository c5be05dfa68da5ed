// Package generic is a Go idiom subject: a generic Cache[K, V] locks in
// Put but not in Get.
//
// Known bug: data race on the cache's map (the whole map is one location),
// in generic code. Get reads it (cache.go:23) while Put writes it
// (cache.go:17) without synchronization. If Get runs first, it misses the
// entry (TestGet fails), and concurrent map access can crash the program.
//
// go test -race flags it in a single run.
package generic
