package rt

import (
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestSeedRand: a recording or replaying process draws the same numbers
// from math/rand in every run; a plain one does not (checked in children
// of this test binary, each its own process).
func TestSeedRand(t *testing.T) {
	if os.Getenv("PECANVET_RAND_CHILD") != "" {
		return
	}
	draw := func(env ...string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSeedRandChild$", "-test.v")
		cmd.Env = append(os.Environ(), append(env, "PECANVET_RAND_CHILD=1")...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		i := strings.Index(string(out), "draws:")
		if i < 0 {
			t.Fatalf("no draws in\n%s", out)
		}
		return strings.Fields(string(out[i:]))[1]
	}
	trace := EnvTrace + "=" + t.TempDir() + "/t.bin"
	if a, b := draw(trace), draw(trace); a != b {
		t.Errorf("recorded runs drew %s and %s", a, b)
	}
	if a, b := draw(), draw(); a == b {
		t.Errorf("plain runs drew the same %s", a)
	}
}

func TestSeedRandChild(t *testing.T) {
	if os.Getenv("PECANVET_RAND_CHILD") == "" {
		t.Skip("run by TestSeedRand")
	}
	t.Logf("draws: %d", rand.Int63())
}
