// Package regcount is a real-module cousin (pecanvet issue 26; the shape
// of uber-go/tally v4.1.17's scope registry and counters, scope_registry.go
// and stats.go:76-84): a counter's report takes the delta since the last
// one (a load of curr, a load of prev, a store of prev = curr); the
// registry's Report reports every scope and drops a closed one; Close
// closes the root scope and reports it a final time, without waiting for
// the report loop's tick under way.
//
// Known bug: an atomicity violation (RRW) on Counter.prev: Close's final
// report loads prev (registry.go:25) between the tick's load of it and the
// tick's store (registry.go:29), both reports take the same delta, and the
// counter is reported twice (`reported 2 requests, want 1`). The two
// reports overlap, tally's double count (triage's stats.go:129 row). In
// the recorded run the tick has reported before Close (a 5 ms sleep), and
// Close's report finds the counter drained: the replay runs the other
// order, and the test fails.
//
// go test -race flags nothing: every access holds a mutex or is atomic.
package regcount
