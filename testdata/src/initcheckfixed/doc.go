// Package initcheckfixed is initcheck in seaweedfs/raft v1.2.4's own
// shape: Init goes on only when `!s.Running()` and stores Initialized
// (server.go:38), Start then stores Follower (server.go:29), and a
// peer's Vote asks Running between them.
//
// Silent by design: Running (`state != "stopped" && state !=
// "initialized"`) answers false on Initialized, as it did on the state
// the unit's own Running call read before the store, with no write
// between; so the vote refused between the writes is the vote refused
// before the Start, a serial order. The av (WRW) replays; nothing may
// be reported (static/depend's `checkedAlike`; main's build before it
// reported server.go:38 av, intermediate state; seaweedfs/raft's
// server.go:543 av was this). Start holds startMu so that two Starts do
// not both pass Init's check (the check-then-act generated drivers
// find otherwise, a bug of its own).
package initcheckfixed
