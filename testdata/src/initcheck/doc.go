// Package initcheck is a real module's cousin (pecanvet issue 26,
// session 48, branch checked48; the buggy cousin of seaweedfs/raft
// v1.2.4's server life cycle: Start calls Init, which goes on only when
// the server is not Running and stores Initialized, server.go:543, and
// Start then stores Follower through setState, server.go:305).
//
// Known bug: an atomicity violation (WRW, intermediate state) on
// Server.state. A peer's Vote between the two writes asks Booting
// (`state == "initialized"`, server.go:58), which is false before the
// Start and after it, and refuses the vote with "booting", an answer no
// order of the whole Start gives. The test passes: dependence only.
// Every access holds the lock: go test -race reports nothing.
//
// initcheckfixed is silent by design: its Vote asks only Running,
// which the unit asked itself before storing Initialized and which
// answers false on Initialized as on the state before (static/depend's
// `checkedAlike`).
package initcheck
