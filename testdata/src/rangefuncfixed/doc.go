// Package rangefuncfixed is the fixed twin of package rangefunc.
//
// Fixed: the iterator copies the slots under the lock and yields from the
// copy, so no slot is read without the lock and the loop body runs without
// holding it. Nothing should be reported.
package rangefuncfixed
