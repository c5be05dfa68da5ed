// Package lockstopfixed is lockstop with moby#28462's kind of fix: Stop
// sends on the quit channel before it takes the lock, so the loop, in its
// timer branch, can always take the lock, come back and receive.
package lockstopfixed
