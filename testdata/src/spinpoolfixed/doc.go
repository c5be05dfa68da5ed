// Package spinpoolfixed is the fixed twin of package spinpool (a stack
// guarded by a spin lock of its own, the shape of ants' pool).
//
// Fixed: Len takes the lock. Nothing should be reported: in particular no
// atomic-set violation between the spin lock's word and the items it
// guards, which pecanvet reported on ants before it took such a type for
// a lock.
package spinpoolfixed
