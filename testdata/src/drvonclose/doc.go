// Package drvonclose is the buggy cousin of lesismal/nbio v1.6.8's
// `ClientConn.OnClose` (nbhttp/client_conn.go:69): a session whose
// OnClose stores the callback with no lock and whose Close calls it under
// the session's mutex, but whose constructor Open starts the goroutine
// that ends the session after its time to live (session.go:22). A caller
// cannot register the callback before that goroutine runs: OnClose after
// Open races with its Close however the caller orders its calls (with a
// short ttl the callback is missed, or called while being stored).
//
// Known bug: data race on Session.onClose between OnClose's unlocked
// write (session.go:32) and Close's locked read (session.go:44). The
// tests never register a callback, so pecanvet finds it through a
// generated driver (static/driver) calling Close and OnClose on one
// session from two goroutines. OnClose is a plain callback setter, as
// nbio's, but static/driver's callbackRegistration keeps driving it: a
// function handing out a Session (Open) starts a goroutine. Session holds
// a sync.Mutex, so the race is reported without an effect, as any race.
//
// -race, 1 run: no test registers a callback; no race.
package drvonclose
