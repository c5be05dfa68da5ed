// Package candidates defines an analyzer that finds candidate access
// anomalies between code that may run concurrently.
//
// The anomalies are data races, atomicity violations (AV) and atomic-set
// serializability violations (ASV). It matches the patterns of pattern (the
// built-in set "all" by default, or the -patterns flag, resolved by
// pattern.Resolve) against the symbolic sequences of package symbolic.
//
// A candidate is a hint, not a finding: pecanvet runs the code that
// reaches it, records a trace, predicts with the PTG engine and replays,
// and reports only what it reproduced. So the analysis over-approximates —
// anything that might be an anomaly should be a candidate — but it must
// not flood, and code whose accesses are consistently protected by a
// common lock gets no candidate at all. A package without concurrency
// (symbolic.Result.HasConcurrency false) gets none: the fast path.
//
// # Concurrency contexts
//
// Patterns have two threads; a candidate binds them to two contexts that
// may run at the same time:
//
//   - the body of a goroutine (the callee of a go statement, of
//     WaitGroup.Go or of an errgroup-style Go method, flattened) against
//     the code of the spawning function that may run after the go
//     statement (its flattened sequence, by program order, so a loop
//     around the go statement counts entirely), and against the body of
//     every other goroutine started in that function (or in functions it
//     calls: their go statements are spliced into its sequence);
//   - a goroutine body against itself when its go statement is in a loop
//     (captured variables declared inside the loop, or inside the body,
//     are fresh per goroutine and left out) or is reached twice through a
//     helper called twice (captured variables left out);
//   - a goroutine body started by a method of T (or a closure in one)
//     against every exported pointer-receiver method of T;
//   - every pair, including a method with itself, of exported
//     pointer-receiver methods of a named type T meant for concurrent use:
//     T has a mutex, RWMutex, Once, sync.Map or sync/atomic field, or one
//     of its methods locks or uses atomics. (All types would flood: a
//     bytes.Buffer-like type is not meant to be shared.) Captured locals
//     are left out: two calls never share them.
//
// A method context is one unit of work (atomic region) as a whole, and so
// is the body of a goroutine whose function is a method; within other
// contexts the units are the method calls spliced in (symbolic Event.Unit)
// and the critical sections (events holding a lock from the same
// acquisition).
//
// # Matching
//
// For a pair of contexts and a pattern, thread 1 is bound to each context
// in turn and thread 2 to the other. Shared variables bind to abstract
// locations both contexts access as the pattern requires (for two-variable
// patterns, "sibling" locations only: fields of one struct type, variables
// of one package, captured variables of one function — the atomic set).
// Each thread's events must match the access types (atomic accesses only
// for patterns marked atomic, never for races), the events of one atomic
// region must be in one unit of work, and each must be able to follow the
// previous one in program order (symbolic Result.MayPrecede). An instance
// is then dropped when locks make it impossible:
//
//   - race (two adjacent events): both hold a common lock and at least one
//     holds it for writing (read locks do not exclude each other);
//   - any pattern: an event of one thread falls, in pattern order, between
//     two events of one region of the other thread that hold a lock
//     continuously (same acquisition) and it holds that lock in a
//     conflicting mode — e.g. an AV whose two accesses are in one critical
//     section against a write under the same lock, or an ASV whose two
//     writes share a critical section;
//   - any pattern: events of both threads inside Once.Do bodies of the same
//     Once (only one body ever runs).
//
// So a check-then-act in two critical sections is an AV candidate but not
// a race, and the same code with one critical section is nothing.
//
// # Over-approximation and its limits
//
// The analysis knows little of happens-before: accesses ordered by a
// WaitGroup, a channel or a Once still pair (the dynamic engine prunes
// them), except the spawner's code that every path from the go statement
// reaches through a receive from a channel the goroutine closes as its
// last action (`defer close(done)` first; symbolic Result.Joined). Locations are abstract (every object of type T shares "T.f",
// every []T shares "[]T elem"), so distinct objects alias. Atomic regions
// are not split at channel operations or waits as they are at run time.
// On the other side, some candidates the dynamic engine could confirm are
// missed: contexts not listed above (a goroutine against unrelated callers
// of its spawner, a spawner called in a loop), calls through interfaces
// and function values, code in the standard library, accesses through
// pointers of unknown origin against named locations, two iterations of a
// loop whose critical section is acquired inside the loop body (seen as
// one critical section unless the two accesses are the same instruction),
// patterns with more than two threads, and whatever the caps below cut.
//
// # Output
//
// Candidates are unique per pattern.Key over their sites (so av/RWW and
// asv/asv-1 on the same sites are one candidate: the first pattern in
// order wins; races are unordered pairs), deterministic in order, at most
// MaxPerPair per pair of contexts and MaxPerPackage per package (patterns
// are tried in order, so races come first).
package candidates
