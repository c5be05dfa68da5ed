// Package atomiclimitfixed is atomiclimit with Acquire fixed: it admits
// with one compare-and-swap, so no add can fall between the check and
// the increment. The running count (Start and Done around the work, read
// by others in between) stays: its updates are separate on purpose, and
// nothing may be reported.
package atomiclimitfixed
