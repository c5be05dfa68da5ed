//go:build go1.24

package rt

import "runtime"

// AddCleanup is runtime.AddCleanup(ptr, cleanup, arg) for the call at
// site, with each cleanup's goroutine forked at the call. The runtime runs
// cleanups on goroutines of its own, maybe one for several cleanups, one
// after the other; the race detector sees each cleanup as a goroutine of
// its own, ordered after the AddCleanup call only, so two cleanups that
// write one variable race. Forking at the call gives exactly that edge,
// as for time.AfterFunc (AfterFuncAt). Each cleanup runs on a goroutine
// of its own, which the runtime's cleanup goroutine only starts: replay
// may hold a cleanup at its turn while another runs, which one runtime
// goroutine running them in turn could not do (since Go 1.25 cleanups may
// run concurrently anyway).
func AddCleanup[T, S any](ptr *T, cleanup func(S), arg S, site int32) runtime.Cleanup {
	if !active.Load() {
		return runtime.AddCleanup(ptr, cleanup, arg)
	}
	g := Go(site)
	if g == nil {
		return runtime.AddCleanup(ptr, cleanup, arg)
	}
	return runtime.AddCleanup(ptr, func(a S) {
		go func() {
			Begin(g)
			defer End()
			cleanup(a)
		}()
	}, arg)
}
