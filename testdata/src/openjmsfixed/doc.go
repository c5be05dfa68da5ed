// Package openjmsfixed is the fixed twin of package openjms (OpenJMS 0.7.7,
// PECAN Figure 6).
//
// Fixed: SetInvocationHandler publishes the multiplexer under the lock and
// then closes a ready channel; Invoke waits for ready before it reads the
// field, so it can never see the connection half set up. Nothing should be
// reported.
package openjmsfixed
