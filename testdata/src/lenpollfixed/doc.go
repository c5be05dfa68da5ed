// Package lenpollfixed is lenpoll fixed: the caller waits by receiving
// from the channel, which orders the loader's write before its read.
//
// Known bug: none.
package lenpollfixed
