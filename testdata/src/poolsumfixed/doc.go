// Package poolsumfixed is poolsum fixed: each callback writes the square
// of its own item into a slot of its own, and Sum adds the slots after
// the pool has returned (which happens after every call).
package poolsumfixed
