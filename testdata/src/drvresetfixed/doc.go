// Package drvresetfixed is drvreset with Arena.Trim starting on an
// allocator from the pool instead of rewinding the one in use
// (arena.go:29-33): the package calls Allocator.Reset only in Pool.Get,
// on an allocator it took from the pool's channel and then returns,
// before anyone shares it, as ristretto's AllocatorPool.Get does. A driver
// calling Reset beside Allocate makes a use the package never makes
// (static/driver reuseHook): no driver calls it, and nothing should be
// reported. Before that rule the driver calling Allocate and Reset
// reported the race on Allocator.off (allocator.go:21 and :26).
package drvresetfixed
