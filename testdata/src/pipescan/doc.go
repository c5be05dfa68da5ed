// Package pipescan is a Go idiom subject (pecanvet issue 26; the shape of
// sirupsen/logrus v1.10.2's Logger.Writer): Writer hands out an io.Pipe
// whose reading end a goroutine scans, adding each line to the log; Add
// adds a line directly.
//
// Known bug: atomicity violation (split read-modify-write, RWW) on
// Log.lines: add reads the count in one critical section (pipescan.go:50)
// and stores the line at that index in another (pipescan.go:58 or :60). A direct
// Add between them takes the same index, and one of the two lines is
// overwritten (consequence: TestDirectAndPiped fails, "1 lines, want 2: a
// line was overwritten"). Every access holds the mutex, so go test -race
// reports nothing.
//
// Its test TestPipedLines is logrus's TestWriterSplitNewlines: it writes
// ten lines through the pipe, closes it and sleeps before it counts; the
// fixed twin, pipescanfixed, has only that interleaving left.
package pipescan
