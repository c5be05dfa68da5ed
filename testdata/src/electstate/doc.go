// Package electstate is a real module's cousin (pecanvet issue 26,
// session 47, branch crit47; the buggy cousin of seaweedfs/raft v1.2.4's
// server, whose loop moves a lone server from follower to candidate to
// leader, each move one setState call under the server's lock,
// server.go:305).
//
// Known bug: an atomicity violation (WRW, intermediate state) on
// Node.state. Run's elect stores "candidate" and then "leader"
// (node.go:24, twice), each under the lock on its own, the first a
// placeholder it overwrites without looking (`put(k, pending); …;
// put(k, v)`): a State between them (node.go:18) returns "candidate",
// which no order of the whole Run shows, and the test logs it. The test
// passes: dependence only (the reader returns what it read). Every
// access holds the lock: go test -race reports nothing.
//
// electstatefixed is silent by design: raft's own shape, each move in an
// activation of its own that the loop runs after checking the state
// afresh, the promotion decided by campaign's `for n.State() ==
// "candidate"` (static/depend's `rereadAbove`).
package electstate
