// Package closelogfixed is closelog with the fix: Log sends only while
// the logger is open, under the mutex that Close holds from its last
// line to the close (logger.go:30-33, logger.go:39-43), so no send can
// follow the close. Nothing should be reported.
package closelogfixed
