// Package wgaddinside is a Go idiom subject: a Group runs tasks in
// goroutines and Wait waits for them and returns their results. The results
// are appended under a mutex; Wait reads them without it, relying on
// WaitGroup.Wait for the ordering.
//
// Known bug: WaitGroup.Add inside the goroutine (at group.go:18, in run,
// which Go starts with "go g.run(f)"; vet's waitgroup check only looks at
// function literals). Nothing orders the Add before the caller's Wait at
// group.go:28. If Wait runs first it sees a zero counter and returns at
// once: results are missing (TestGroup fails), and the read of g.results at
// group.go:29 races with the tasks' append at group.go:22. In an ordinary
// run the caller does other work before waiting, the Adds come first, and
// Done→Wait orders everything.
//
// Detecting it needs WaitGroup counter reasoning: the happens-before edge
// Done→Wait that the ordinary run shows exists only because the Add came
// first. go test -race does not flag it in an ordinary run (it sees that
// edge).
package wgaddinside
