// Package lostsignalfixed is lostsignal with Take waiting only while no
// message is there (the predicate checked under the lock, the usual
// Cond loop): a signal that comes first leaves the message, and Take
// returns it without waiting. Nothing should be reported.
package lostsignalfixed
