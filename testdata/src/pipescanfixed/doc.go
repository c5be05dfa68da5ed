// Package pipescanfixed is pipescan's log with add in one critical
// section. Its TestPipedLines (logrus v1.10.2's TestWriterSplitNewlines)
// sleeps after closing the pipe before it counts the lines: a schedule
// that holds the scanning goroutine past the sleep, the test's count
// between its first and last line, fails that count. That was reported
// (av WRW on Log.lines, by its effect) until check's waitsInUnit: the
// interleaving's unit is the scanning goroutine's whole loop, which blocks
// reading the pipe (uninstrumented, in the standard library) between its
// lines, so neither serial order can run: the test's count cannot come
// before the first line, whose read waits on the test's writes, nor after
// the last, which waits on them too. Nothing should be reported.
package pipescanfixed
