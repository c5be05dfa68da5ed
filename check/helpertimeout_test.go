package check

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// helperSrc is labstack/echo's server_test.go in small: a helper whose
// select gives up at its own timeout and returns the context's error,
// a wrapper that returns the helper's results, and tests that assert on
// them.
const helperSrc = `package p

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func wait(addr <-chan string, errc <-chan error) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	select {
	case <-ctx.Done():
		return "", ctx.Err() // 17
	case a := <-addr: // 18
		return a, nil
	case err := <-errc: // 20
		return "", err
	}
}

func start() (string, error) {
	addr, errc := make(chan string), make(chan error)
	go func() { addr <- "x" }()
	return wait(addr, errc)
}

func TestStart(t *testing.T) {
	addr, err := wait(nil, nil)
	assert.NoError(t, err) // 33
	assert.Equal(t, "x", addr) // 34
	err = errors.New("other")
	assert.NoError(t, err) // 36
}

func TestWrapped(t *testing.T) {
	_, err := start()
	if err != nil {
		t.Fatalf("start: %v", err) // 42
	}
}

func plain(addr <-chan string) (string, error) {
	select {
	case a := <-addr: // 48
		return a, nil
	case <-time.After(time.Second):
		return "", nil
	}
}

func TestPlain(t *testing.T) {
	_, err := plain(nil)
	assert.NoError(t, err) // 57
}

func waitAssign(ch <-chan string, d time.Duration) (string, error) {
	var err error
	var s string
	select {
	case s = <-ch: // 64
	case <-time.After(d):
		err = errors.New("timeout")
	}
	return s, err
}

func TestAssign(t *testing.T) {
	_, err := waitAssign(nil, time.Second)
	assert.Nil(t, err) // 73
}

func waitShadow(ch <-chan string) (string, error) {
	var err error
	select {
	case s := <-ch: // 79
		return s, nil
	case <-time.After(time.Second):
		var err error
		err = errors.New("timeout")
	}
	return "", err
}

func waitLater(ch <-chan string) (string, error) {
	var err error
	var s string
	select {
	case s = <-ch: // 92
	case <-time.After(time.Second):
		err = errors.New("timeout")
	}
	err = nil
	return s, err
}

func TestShadowLater(t *testing.T) {
	_, err := waitShadow(nil)
	assert.Nil(t, err) // 102
	_, err = waitLater(nil)
	assert.Nil(t, err) // 104
}
`

// TestHelperTimedOut checks that a leak whose replay's test failed at an
// assertion of the timeout error a test helper's select returned loses
// its proof, and that one whose test passed, failed elsewhere or on
// another error, or whose stranded operation the recorded passing run
// also left blocked, keeps it.
func TestHelperTimedOut(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(helperSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	q := &replayQueue{alts: selectAlts{dir: dir}}
	leakAt := func(sel string) prediction {
		return prediction{a: predict.Anomaly{Pattern: &pattern.Pattern{Leak: true}, Sites: []string{sel, "p_test.go:27:14"}}}
	}
	leak := leakAt("p_test.go:18:12")
	stillBlocked := leak
	stillBlocked.endBlocked = true
	proved := replay.Verdict{Verdict: replay.Reproduced, Passed: true, Leaked: []string{"g1.1.1 in chan send chan_string#1 @p_test.go:27:14"}}
	const deadline = ": Received unexpected error: context deadline exceeded"
	const timeout = `: Expected nil, but got: &errors.errorString{s:"timeout"}`
	for _, tc := range []struct {
		name string
		p    prediction
		v    replay.Verdict
		want string
	}{
		{"asserts the timeout", leak, failed(proved, "test fails: p_test.go:33"+deadline+"; p_test.go:34: not equal"), replay.Diverged},
		{"through a wrapper, t.Fatalf", leak, failed(proved, "test fails: p_test.go:42: start: context deadline exceeded"), replay.Diverged},
		{"passed", leak, proved, replay.Reproduced},
		{"blocked at the recorded end too", stillBlocked, failed(proved, "test fails: p_test.go:33"+deadline), replay.Reproduced},
		{"another error", leak, failed(proved, "test fails: p_test.go:33: Received unexpected error: connection refused"), replay.Reproduced},
		{"another assertion", leak, failed(proved, "test fails: p_test.go:34: not equal: context deadline exceeded"), replay.Reproduced},
		{"variable reassigned", leak, failed(proved, "test fails: p_test.go:36"+deadline), replay.Reproduced},
		{"escape returns no error", leakAt("p_test.go:48:12"), failed(proved, "test fails: p_test.go:57"+deadline), replay.Reproduced},
		// r3labs/sse's wait: the branch assigns the error, the return after the select hands it on.
		{"escape assigns the returned error", leakAt("p_test.go:64:11"), failed(proved, "test fails: p_test.go:73"+timeout), replay.Diverged},
		{"assigned error, another assertion", leakAt("p_test.go:64:11"), failed(proved, "test fails: p_test.go:57"+timeout), replay.Reproduced},
		{"escape assigns its own err", leakAt("p_test.go:79:12"), failed(proved, "test fails: p_test.go:102"+timeout), replay.Reproduced},
		{"error overwritten after the select", leakAt("p_test.go:92:11"), failed(proved, "test fails: p_test.go:104"+timeout), replay.Reproduced},
	} {
		got := q.timedOutLeak(tc.p, tc.v)
		if got.Verdict != tc.want {
			t.Errorf("%s: verdict %s, want %s (%s)", tc.name, got.Verdict, tc.want, got.Message)
		}
		if tc.want == replay.Diverged && len(got.Leaked) != 0 {
			t.Errorf("%s: Leaked %v", tc.name, got.Leaked)
		}
	}
}

// TestBlockedAtEnd checks that a leak's stranded operation is matched
// against the operations the recorded run ended blocked in by site.
func TestBlockedAtEnd(t *testing.T) {
	tr := &trace.Trace{Tables: trace.Tables{Sites: []string{"a_test.go:5:3", "a_test.go:9:4"}},
		Blocked: []trace.Event{{Site: 1, Op: trace.Send}}}
	leak := func(partner string) predict.Anomaly {
		return predict.Anomaly{Pattern: &pattern.Pattern{Leak: true}, Sites: []string{"a_test.go:5:3", partner}}
	}
	if !blockedAtEnd(tr, leak("a_test.go:9:4")) {
		t.Error("the partner blocked at the end: not found")
	}
	if blockedAtEnd(tr, leak("a_test.go:5:3")) {
		t.Error("a partner no goroutine ended blocked in: found")
	}
	if blockedAtEnd(tr, predict.Anomaly{Pattern: &pattern.Pattern{}, Sites: []string{"a_test.go:5:3", "a_test.go:9:4"}}) {
		t.Error("not a leak: found")
	}
}
