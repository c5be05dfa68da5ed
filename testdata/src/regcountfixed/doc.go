// Package regcountfixed is regcount with its reports one at a time: the
// registry's Report holds a mutex for the whole report, so Close's final
// report runs before or after the report loop's tick, never inside it,
// and no delta is taken twice (a counter's load of prev and its store are
// in one report). Nothing should be reported.
package regcountfixed
