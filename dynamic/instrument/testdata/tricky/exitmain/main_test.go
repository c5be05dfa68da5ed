package exitmain

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	Setup = true
	code := m.Run()
	os.Exit(code)
}

func TestSetup(t *testing.T) {
	if !Setup {
		t.Error("TestMain did not run")
	}
}
