// Package maxwaitfixed is maxwait fixed: the worker checks for a job and
// takes it in one critical section (queue.go:70-78), so a Cancel cannot
// come between. The test, with its timing assumption (five jobs 2 ms
// apart, none to wait past the 5 ms MaxWait), is the same.
//
// What is left is serializable: Submit counts the job (queue.go:36,
// Queue.size, under statsMu) and then queues it (queue.go:39, Queue.jobs,
// under mu); the worker takes it (queue.go:77) and then uncounts it
// (queue.go:80). The atomic-set violations on (size, jobs) between them
// change no value anyone uses (size is only kept). Before session 49
// pecanvet reported one of them by its effect (asv-14 at queue.go:36,
// "test fails: queue_test.go:28: job 4 did not run within 1 s (1
// dropped)"): the replay held the worker at its gates while the clock ran
// with real time, jobs waited past MaxWait and were shed, and the serial
// controls and repeats, on the same clock, did not all fail alike. The
// replay's clock now stands still while the replay holds goroutines
// (dynamic/rt vclock.go), moving only when nothing else can, so the held
// steps take no time on it and no job waits past MaxWait. Nothing should
// be reported.
package maxwaitfixed
