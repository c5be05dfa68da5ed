package testmainglobal

import (
	"os"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	// The configuration loads in the background while the tests start,
	// and is reloaded now and then.
	go func() {
		for i := 0; i < 10; i++ {
			time.Sleep(20 * time.Millisecond)
			SetMax(2)
		}
	}()
	os.Exit(m.Run())
}

func TestAdmit(t *testing.T) {
	time.Sleep(100 * time.Millisecond) // "the configuration is loaded by then"
	for open := 0; open < 3; open++ {
		if got, want := Admit(open), open < 2; got != want {
			t.Errorf("admitted connection %d with limit 2: %v", open+1, got)
		}
	}
}
