// Package drvassignfixed is drvassign with the delivery count taken under
// the bus's mutex (bus.go:34-36): two concurrent Publish calls leave
// Delivered() = 2, as either order does. The generated driver copies
// TestPublish's setup with its subscriber and its timer, as for
// drvassign; nothing should be reported (before the mark took the
// address, `_ = ready` raced with the timer's locked write of it).
package drvassignfixed
