// Package initwrite is a real module's shape (go-grpc-middleware v2.3.4's
// protovalidate test helper, pecanvet issue 26, session 42): a server's
// goroutine stores Serve's result in the caller's error variable in an if
// statement's init, `if *err = s.Serve(); *err != nil`.
//
// Known bug: data race on the error variable. After Stop the test reads
// err (server_test.go:11) while the server's goroutine, woken by Stop,
// stores Serve's result (server.go:24); nothing orders the two. The test
// passes: Serve returns nil, so both orders read nil.
//
// go test -race flags it in a single run.
package initwrite
