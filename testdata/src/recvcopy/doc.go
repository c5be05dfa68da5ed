// Package recvcopy is a Go language subject: a Server embeds a pointer to
// its Settings, whose Summary method has a value receiver; the Settings
// change under the server's lock, Summary is called without it.
//
// Known bug: data race on Settings.Level. Calling s.Summary() promotes the
// method through the embedded *Settings and copies the receiver: it reads
// s.Settings and the whole *s.Settings (server.go:32) before Summary runs,
// while SetLevel writes one field (server.go:26) without synchronization.
// If the call comes after the write is due, the old level is summarized
// (TestSummary fails).
//
// go test -race flags it in a single run.
package recvcopy
