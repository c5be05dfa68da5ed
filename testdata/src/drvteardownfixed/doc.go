// Package drvteardownfixed is drvteardown with Reset clearing the policy
// in place (cache.go:32) instead of swapping in a new one and closing the
// old, and Get pushing under the cache's lock (cache.go:24), as Close
// closes under it: the package calls policy.Close only in Cache.Close, as
// a step of its owner's teardown, after the owner marked itself closed.
// A driver calling policy's Close beside its Push makes a use the package
// never makes (static/driver ownerTeardown): no driver calls it, and
// nothing should be reported. Before that rule the driver calling Close
// and Push reported the race on policy.closed (policy.go:20) with
// "panic: send on closed channel", as it did on ristretto's
// defaultPolicy.
package drvteardownfixed
