// Package electstatefixed is electstate in seaweedfs/raft v1.2.4's own
// shape: Run's loop reads the state and runs that state's step, follow
// moving to "candidate", campaign, a later activation, promoting only
// while `for n.State() == "candidate"` holds (server.go's loop,
// followerLoop and candidateLoop).
//
// Silent by design: the two writes (node.go:24, from follow, then from
// campaign) are two moves of the machine, joined by the state the unit
// reads back in an activation entered after the first: it reaches the
// second only through that check, so "candidate" is a state the machine
// publishes and re-checks, and a State between them sees a state as
// between two units. The av (WRW) replays; nothing may be reported
// (static/depend's `rereadAbove`; main's build before it reported
// node.go:24 av, intermediate state; seaweedfs/raft's server.go:305 av
// was this).
package electstatefixed
