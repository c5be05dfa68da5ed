// Package relockfixed is relock with Get releasing the read lock before
// it refreshes the entries (and refresh re-checking under the write
// lock): no path locks a mutex it holds. Nothing should be reported.
package relockfixed
