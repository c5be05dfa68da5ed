// Package shrinkbusyfixed is shrinkbusy fixed: shrink takes the workers
// past n out of the pool under the lock and stops them after releasing
// it, so Workers never waits for a worker busy in a task. The test and
// its idle worker's select are shrinkbusy's; no recording hangs, and
// nothing is reported.
package shrinkbusyfixed
