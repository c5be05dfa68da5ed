// Package logout is a double logout (go-smtp's Conn.Close with its nil
// check and its clear split apart): a Line holds its client's session
// (Login, line.go:38); Close reads it under the line's lock (line.go:45),
// logs it out after unlocking (line.go:48), clears it in a second
// critical section (line.go:51) and closes the connection. A line's
// goroutine (Server.Serve) logs in, says "ok" and reads until its client
// quits or the line is closed, then closes the line itself. TestShutdown
// closes the line under the talking client, as a server's shutdown
// closes every live connection; TestQuit closes it 5 ms after the client
// quit, so an ordinary run logs out in the goroutine's Close and the
// test's finds nil. Every access holds the lock: go test -race sees
// nothing.
//
// Known bug: the session is logged out twice. The check and the clear
// are two critical sections, so the test's Close can read the session
// after the goroutine's Close read it and before it cleared it: both log
// it out, and TestQuit fails "session logged out 2 times, want 1".
//
// pecanvet predicts the test's check between the goroutine's Login and
// its clear (an atomicity violation on Line.sess, line.go:38, :45, :51)
// and proves it by a replay that fails the test.
package logout
