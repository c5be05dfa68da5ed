package drvreturn_test

import (
	"runtime"
	"testing"

	"subjects/drvreturn"
)

// skipCaller returns with a skip, as logrus's skipReportCaller: its bare
// return is its own, copied as it is.
func skipCaller(t *testing.T) bool {
	if runtime.GOOS == "plan9" {
		t.Skip("no caller on plan9")
		return true
	}
	func() {
		if runtime.GOOS == "js" {
			return
		}
	}()
	return false
}

func TestNested(t *testing.T) {
	if skipCaller(t) {
		return
	}
	l := drvreturn.New()
	l.WithField("a", "b")
	l.WithFields(map[string]string{"c": "d"})
}
