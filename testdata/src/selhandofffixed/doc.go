// Package selhandofffixed is selhandoff with Release closing p.stop and
// broadcasting under p.mu (pool.go:66-69): the miner checks p.stop and
// waits without letting go of p.mu between, so the broadcast comes either
// before its check (which then sees p.stop closed) or while it waits. The
// non-blocking hand-off is unchanged. Nothing should be reported.
package selhandofffixed
