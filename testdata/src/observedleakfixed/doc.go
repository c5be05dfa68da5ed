// Package observedleakfixed is observedleak fixed: the result channel has
// a buffer of one, so the late send completes into it and the goroutine
// ends, whichever branch Lookup took. Nothing should be reported.
//
// It also has a daemon that must stay silent: Warm starts, once, a
// resolver goroutine that receives names on a package-level channel.
// Every run ends TestWarm with that goroutine blocked in its receive
// (lookup.go:43), which the recorder notes as it notes observedleak's
// send; but the channel is a package-level variable, reachable by any
// later call of Warm, so the goroutine is not stuck: check/observed.go
// takes only a channel local to the function that started the goroutine.
package observedleakfixed
