// Package drvonclosefixed is drvonclose with Open starting nothing: the
// shape of lesismal/nbio v1.6.8's `ClientConn` (a mutex, `OnClose(h)`
// storing the callback with no lock, `Close` calling it under the mutex),
// whose driver race between OnClose and Close triage.md calls false
// (nbhttp/client_conn.go:70). A caller registers the callback before it
// shares the session and races with nothing; calling OnClose beside Close
// is a use the registration's contract rules out. static/driver's
// callbackRegistration makes no driver calling OnClose (its whole body
// stores a func parameter into a field nothing else writes, the package
// never calls it, and no function handing out a Session starts a
// goroutine), and nothing should be reported. Main's build before it
// reported session.go:24 race (race/WR, found by a generated driver
// calling Close and OnClose).
package drvonclosefixed
