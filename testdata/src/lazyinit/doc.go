// Package lazyinit is a Go idiom subject: a Client dials its connection
// lazily, on first use, with a plain nil check instead of sync.Once.
//
// Known bug: data race on Client.conn (check-then-act). getConn reads c.conn
// at client.go:22 and, if it is nil, dials and writes it at client.go:27,
// without synchronization. If a second request reads conn before the first
// one has set it, both dial: two connections are opened, one of them is
// leaked, and the two requests use different connections (TestLazyDial
// fails: "dialed 2 times").
//
// go test -race flags it in a single run.
package lazyinit
