// Package jigsaw is a Go version of the bug PECAN predicted in Jigsaw 2.2.6
// (PECAN Figure 7): EventManager.GetNextEvent waits until the event queue (a
// synchronized vector, like java.util.Vector) is non-empty, takes the first
// event and removes it. Each queue method locks the queue; the three steps
// together do not.
//
// Known bug: atomicity violation (check-then-act; RWR and RWW on
// Queue.items). The emptiness check Size at jigsaw.go:29 (Figure 7, line 1),
// ElementAt at jigsaw.go:36 (line 2) and RemoveElementAt at jigsaw.go:43
// (line 3) are separate critical sections. If a second dispatcher goroutine
// takes and removes the only event between the first one's check and its
// ElementAt, ElementAt(0) indexes an empty slice and panics ("index out of
// range [0] with length 0", Jigsaw's ArrayIndexOutOfBoundsException).
//
// Every access is made with the queue's mutex held, so go test -race does
// not flag it.
//
// Reported at jigsaw.go:29 (the check's av/RWR, ElementAt's "index out of
// range" panic) and at jigsaw.go:36 (av/RWW: the other dispatcher's
// RemoveElementAt between ElementAt's read and this one's remove at
// jigsaw.go:43, which then removes an element it did not read, or panics
// in slices.Delete, slices.go:223), each with the other interleavings of
// its effect shown with -v. The second was led by an av/RWR at :29 too
// until session 39, and go vet showed the two as one diagnostic there: a
// member whose dependence holds now leads before one reported for its
// effect alone (check's dependsAlways), so that the controls do not
// decide the lead.
package jigsaw
