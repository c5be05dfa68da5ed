// Package peerconnect is a real-module subject (pecanvet issue 26,
// session 48; hashicorp/raft v1.8.0's InmemTransport and
// cluster.FullyConnect, with each route marked pending first): Connect
// stores a peer's transport in the peers map under the transport's lock
// (transport.go:24); Call looks the peer up under the read lock
// (transport.go:31) and calls it (transport.go:36). FullyConnect marks
// the route to each peer pending (a nil transport), then connects it.
//
// Known bug: an atomicity violation (WRW) on a transport's peers map: a
// Call between FullyConnect's pending mark and its connect of the same
// peer finds the route present with a nil transport and calls through it
// (TestCall panics: nil pointer dereference), which no serial order of
// FullyConnect and the Call does: before it the route is absent, after
// it connected. peerconnectfixed stores each peer's own transport twice,
// as raft's FullyConnect does, and nothing may be reported there.
//
// go test -race flags nothing: the map is under the transport's lock.
package peerconnect
