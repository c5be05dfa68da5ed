// Package peerconnectfixed is peerconnect without the pending mark:
// FullyConnect connects each ordered pair of transports both ways, as
// hashicorp/raft v1.8.0's cluster.FullyConnect does (testing.go:523 and
// :524), so each transport's peers map gets each peer's own transport
// twice, at (i,j) and at (j,i). Silent by design: the predicted schedule
// moves TestCall's lookup (transport.go:31) between the two stores of b
// in a's map (transport.go:24) and the replay reproduces that atomicity
// violation (WRW, the value read used at transport.go:36), but the
// lookup finds b's transport, which the second store puts there again:
// the replay's trace records each store's value identity (the pointer's
// address, trace.Event.Val) and shows both stores of one identity with
// no write of that element between (static/depend's storedAgain, check's
// Event.Again). raft's inmem_transport.go:218 av (makeRPC's lookup at
// :168 between FullyConnect's two Connects) was this. Main's build before
// it reported its transport.go:24 av (intermediate state). Nothing
// should be reported.
package peerconnectfixed
