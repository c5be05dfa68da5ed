package hb

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

func run(t *testing.T, src string) *Detector {
	t.Helper()
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Run(tr)
}

func TestRaces(t *testing.T) {
	for _, c := range []struct {
		name, src string
		races     int
	}{
		{"unsynchronized writes", "main fork g1\ng1 begin\ng1 write x\nmain write x\n", 1},
		{"read then unsynchronized write", "main fork g1\ng1 begin\ng1 read x\nmain write x\n", 1},
		{"concurrent reads", "main fork g1\ng1 begin\ng1 read x\nmain read x\n", 0},
		{"concurrent reads then a write", "main fork g1\ng1 begin\ng1 read x\nmain read x\nmain write x\n", 1},
		{"fork orders", "main write x\nmain fork g1\ng1 begin\ng1 write x\n", 0},
		{"join orders", "main fork g1\ng1 begin\ng1 write x\ng1 end\nmain join g1\nmain write x\n", 0},
		{"mutex orders", "main fork g1\ng1 begin\ng1 lock mu\ng1 write x\ng1 unlock mu\nmain lock mu\nmain write x\nmain unlock mu\n", 0},
		{"different mutexes", "main fork g1\ng1 begin\ng1 lock mu\ng1 write x\ng1 unlock mu\nmain lock mu2\nmain write x\nmain unlock mu2\n", 1},
		{"buffered channel", "main fork g1\ng1 begin\ng1 write x\ng1 send c cap=1\nmain recv c cap=1\nmain write x\n", 0},
		{"unbuffered: receive orders the sender's next event", "main fork g1\ng1 begin\nmain write x\ng1 send c cap=0\nmain recv c cap=0\ng1 write x\n", 0},
		{"wait group", "main fork g1\ng1 begin\ng1 write x\ng1 wg-done wg\nmain wg-wait wg\nmain write x\n", 0},
		{"atomic flag", "main fork g1\ng1 begin\ng1 write x\ng1 atomic-store f\nmain atomic-load f\nmain write x\n", 0},
	} {
		if d := run(t, c.src); d.Races != c.races {
			t.Errorf("%s: %d races, want %d", c.name, d.Races, c.races)
		}
	}
}
