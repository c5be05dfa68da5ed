// Package condleakfixed is condleak fixed: a producer with nothing to
// give queues an empty item all the same and signals, and the consumer
// counts every item it takes off the queue, keeping the non-empty ones;
// so it takes n and ends. Nothing should be reported.
package condleakfixed
