// Package stopclosefixed is stopclose with the fix of
// knative/serving#5865: the feed's goroutine closes only its done
// channel when it returns, nothing closes the input channel, and Update
// stops waiting to send once the feed is done (feed.go:38-41). Nothing
// should be reported.
package stopclosefixed
