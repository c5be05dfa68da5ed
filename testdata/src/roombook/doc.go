// Package roombook is a Go idiom subject, beyond -race: a booking desk
// whose Reserve looks a room up in one critical section (holder) and, when
// it is free, books it in another (book), on a map guarded by one mutex.
//
// Known bug: atomicity violation (check-then-act, RWW) on one key of the
// desk's map: the lookup at roombook.go:18 decides the booking at
// roombook.go:24. The manager's Assign of the same room can fall between
// them, and Reserve's booking overwrites it (consequence: TestAssignSameRoom
// fails, "blue is "ann"'s, want bob's: the manager's assignment was
// lost"). Every access holds the mutex, so go test -race reports nothing.
//
// The fixed twin, roombookfixed, has the same desk; its test assigns and
// cancels other rooms while a guest reserves blue. The trace names the map as one object, but the two
// goroutines touch different keys: nothing one reads is anything the
// other writes (pecanvet records a map element's key with each access,
// and the atomicity patterns need one key; issue 26, gcache's
// singleflight).
package roombook
