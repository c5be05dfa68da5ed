// Package drvgenericfixed is drvgeneric with the check and the store in
// one critical section (cache.go:19-29): two concurrent Adds of "a" leave
// one false and Len() = 1, as either order does. The generated driver
// instantiates Cache as TestAdd does and copies its setup, as for
// drvgeneric; nothing should be reported.
package drvgenericfixed
