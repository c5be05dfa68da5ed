// Package openjms is a Go version of the destructive race PECAN found in
// OpenJMS 0.7.7 (PECAN Figure 6): a managed connection gets its multiplexer
// from SetInvocationHandler, and Invoke copies the field under the
// connection's lock and fails with a resource error if it is still nil.
//
// Known bug: data race on ManagedConnection.multiplexer. The write in
// SetInvocationHandler at openjms.go:34 (Figure 6, line 1) is made without
// the lock and is not ordered with the locked read in Invoke at
// openjms.go:40 (Figure 6, line 2). If Invoke reads the field before it is
// initialized, it returns ErrResource — in OpenJMS a ResourceException that
// crashes the program (TestInvoke fails).
//
// go test -race flags it in a single run.
package openjms
