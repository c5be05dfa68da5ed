package testmainglobalfixed

import (
	"os"
	"sync"
	"testing"
)

func TestMain(m *testing.M) {
	SetMax(2) // before m.Run: happens before every test
	os.Exit(m.Run())
}

func TestAdmit(t *testing.T) {
	for open := 0; open < 3; open++ {
		if got, want := Admit(open), open < 2; got != want {
			t.Errorf("admitted connection %d with limit 2: %v", open+1, got)
		}
	}
}

func TestAdmitConcurrently(t *testing.T) {
	t.Run("readers", func(t *testing.T) {
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if Admit(2) {
					t.Errorf("admitted connection 3 with limit 2")
				}
			}()
		}
		wg.Wait()
	})
}
