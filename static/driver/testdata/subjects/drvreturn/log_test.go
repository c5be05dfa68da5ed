package drvreturn

import (
	"runtime"
	"testing"
)

func skipCaller(t *testing.T) bool {
	if runtime.GOOS == "plan9" {
		t.Skip("no caller on plan9")
		return true
	}
	return false
}

func TestNested(t *testing.T) {
	if skipCaller(t) {
		return
	}
	l := New()
	l.WithField("a", "b")
	l.WithFields(map[string]string{"c": "d"})
}
