//go:build go1.21

package rt

import "context"

// CtxAfterFuncAt returns context.AfterFunc for the call at site, with the
// callback's goroutine forked at the call, as AfterFuncAt does for
// time.AfterFunc: the call happens before f runs (the context registers f
// under its lock, and the cancellation that starts f takes that lock; a
// context already done starts f from the call itself), which a goroutine
// that package context starts would otherwise not show.
//
// The stop function it returns reports true when it kept f from ever
// running: then the forked goroutine will never begin, and it is dropped
// from what Drain waits for (replay then does not wait for it either).
// Stop orders nothing with f, so it records nothing.
//
// The edge from the cancellation itself (cancel, or a parent's, or a
// deadline) to f is not recorded: package context does that, and cancel
// functions are not instrumented. Missing it can only leave a prediction
// that replay prunes (f's goroutine does not start before the cancel).
func CtxAfterFuncAt(site int32) func(context.Context, func()) func() bool {
	return func(ctx context.Context, f func()) func() bool {
		g := Go(site)
		if g == nil {
			return context.AfterFunc(ctx, f)
		}
		stop := context.AfterFunc(ctx, func() {
			Begin(g)
			defer End()
			f()
		})
		return func() bool {
			stopped := stop()
			if stopped {
				dropKid(g)
			}
			return stopped
		}
	}
}

// dropKid forgets a goroutine forked through Go that will never begin.
func dropKid(g *Goroutine) {
	mu.Lock()
	defer mu.Unlock()
	dropKidLocked(g)
}
