// Package drvgetterfixed is drvgetter with Add reading and writing the
// total in one critical section: two Adds called together by a generated
// driver leave Total() as either order does. Nothing should be reported.
package drvgetterfixed
