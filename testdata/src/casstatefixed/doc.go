// Package casstatefixed is casstate with Slide fixed, the shape of
// go.uber.org/ratelimit's atomic limiter: Slide builds the new bounds in a
// variable of its own (window.go:28) and publishes them with one
// compare-and-swap (window.go:29), in a loop. Another Slide reads the
// bounds through the pointer it loaded, so its load stays after the CAS
// that published them (ptg's keepDereferenced): it cannot read them half
// written. Nothing may be reported.
package casstatefixed
